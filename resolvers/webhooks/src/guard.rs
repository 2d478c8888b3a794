//! The address guard. Webhooks go only to public addresses: a caller must not be able to make
//! Signet POST into its own network (loopback, private ranges, link-local including the cloud
//! metadata address, carrier-grade NAT, multicast, reserved and documentation ranges, and the
//! IPv6 equivalents, with IPv4 embedded in IPv6 unwrapped).
//!
//! The guard runs twice: when an endpoint is created (a clear 400), and again at every delivery
//! on the addresses the connection will actually use. Delivery resolves names through
//! [`GuardedResolver`], which hands the HTTP client only the addresses that passed, so a name
//! that resolves to a public address at creation and to 127.0.0.1 later (DNS rebinding) is
//! refused at delivery. Redirects are never followed.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use reqwest::Url;

/// What the operator allows beyond public https: for development and the test suite.
#[derive(Clone, Copy, Debug, Default)]
pub struct Policy {
    /// Allow loopback, private and link-local addresses.
    pub allow_private: bool,
    /// Allow plain `http://` URLs.
    pub allow_http: bool,
}

pub fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(a == 0
        || a == 10
        || a == 127
        || (a == 100 && (64..128).contains(&b))
        || (a == 169 && b == 254)
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 168)
        || (a == 192 && b == 0 && (c == 0 || c == 2))
        || (a == 192 && b == 88 && c == 99)
        || (a == 198 && (b == 18 || b == 19))
        || (a == 198 && b == 51 && c == 100)
        || (a == 203 && b == 0 && c == 113)
        || a >= 224)
}

/// The IPv4 address in bits `from..from + 32` of `ip`.
fn carried_v4(ip: Ipv6Addr, from: usize) -> Ipv4Addr {
    let bits = u128::from(ip);
    Ipv4Addr::from((bits >> (96 - from)) as u32)
}

/// Only global unicast (2000::/3) is public, minus the IANA special-purpose ranges within it;
/// every form that carries an IPv4 address (mapped, NAT64, 6to4, ISATAP) is judged by the
/// address it carries.
pub fn is_public_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    let s = ip.segments();
    // NAT64's well-known prefix (64:ff9b::/96) reaches the IPv4 address in its last 32 bits.
    // The local-use prefix 64:ff9b:1::/48 is not global and falls outside 2000::/3 below.
    if s[0..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return is_public_v4(carried_v4(ip, 96));
    }
    if s[0] & 0xe000 != 0x2000 {
        // Loopback, unspecified, IPv4-compatible, discard-only (100::/64), dummy prefixes,
        // SRv6 SIDs (5f00::/16), unique local, link-local, site-local, multicast.
        return false;
    }
    // 6to4 (2002::/16) routes to the IPv4 address in bits 16..48.
    if s[0] == 0x2002 && !is_public_v4(carried_v4(ip, 16)) {
        return false;
    }
    // ISATAP interface ids (::0:5efe:a.b.c.d, ::200:5efe:a.b.c.d) carry an IPv4 address.
    if s[4] & 0xfdff == 0 && s[5] == 0x5efe && !is_public_v4(carried_v4(ip, 96)) {
        return false;
    }
    let special = match s[0] {
        // IETF protocol assignments (Teredo, ORCHID, benchmarking) and documentation.
        0x2001 => s[1] < 0x0200 || s[1] == 0x0db8,
        // Documentation (3fff::/20).
        0x3fff => s[1] < 0x1000,
        _ => false,
    };
    !special
}

pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

/// Checks a URL's form: scheme, no credentials, a host. Returns the parsed URL or the reason.
pub fn check_form(raw: &str, policy: Policy) -> Result<Url, String> {
    let url = Url::parse(raw).map_err(|e| format!("is not a valid URL ({e})"))?;
    match url.scheme() {
        "https" => {}
        "http" if policy.allow_http => {}
        "http" => return Err("must be an https:// address; plain http is refused".into()),
        other => return Err(format!("must be an https:// address, not {other}://")),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(
            "must not carry a user name or password; verify deliveries by their signature instead"
                .into(),
        );
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("has no host".into());
    }
    if raw.len() > 2048 {
        return Err("is longer than 2,048 characters".into());
    }
    Ok(url)
}

fn literal_ip(url: &Url) -> Option<IpAddr> {
    match url.host()? {
        url::Host::Ipv4(ip) => Some(IpAddr::V4(ip)),
        url::Host::Ipv6(ip) => Some(IpAddr::V6(ip)),
        url::Host::Domain(_) => None,
    }
}

fn refused(host: &str, ip: IpAddr) -> String {
    format!(
        "points at {ip}{}, which is not a public internet address (loopback, private, link-local and reserved addresses are refused)",
        if host == ip.to_string() {
            String::new()
        } else {
            format!(" (resolved from {host})")
        }
    )
}

/// Resolves the URL's host and checks every address, as at creation.
pub async fn check_reachable(url: &Url, policy: Policy) -> Result<(), String> {
    let host = url.host_str().unwrap_or_default().to_string();
    if let Some(ip) = literal_ip(url) {
        return if policy.allow_private || is_public(ip) {
            Ok(())
        } else {
            Err(refused(&host, ip))
        };
    }
    let port = url.port_or_known_default().unwrap_or(443);
    let addrs = resolve(&host, port)
        .await
        .map_err(|e| format!("has a host name that cannot be resolved ({host}: {e})"))?;
    if !policy.allow_private
        && let Some(bad) = addrs.iter().find(|a| !is_public(a.ip()))
    {
        return Err(refused(&host, bad.ip()));
    }
    Ok(())
}

/// A literal IP in a URL never reaches the resolver, so delivery checks it here.
pub fn check_literal(url: &Url, policy: Policy) -> Result<(), String> {
    match literal_ip(url) {
        Some(ip) if !policy.allow_private && !is_public(ip) => {
            Err(refused(url.host_str().unwrap_or_default(), ip))
        }
        _ => Ok(()),
    }
}

async fn resolve(host: &str, port: u16) -> Result<Vec<SocketAddr>, String> {
    let found = tokio::time::timeout(
        Duration::from_secs(5),
        tokio::net::lookup_host((host.to_string(), port)),
    )
    .await
    .map_err(|_| "resolution timed out".to_string())?
    .map_err(|e| e.to_string())?
    .collect::<Vec<_>>();
    if found.is_empty() {
        return Err("no addresses".into());
    }
    Ok(found)
}

/// The HTTP client's resolver at delivery: only addresses that pass the guard are returned,
/// and the connection is made to exactly those.
#[derive(Debug)]
pub struct GuardedResolver {
    pub policy: Policy,
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.policy;
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs = resolve(&host, 0).await?;
            let allowed: Vec<SocketAddr> = addrs
                .iter()
                .copied()
                .filter(|a| policy.allow_private || is_public(a.ip()))
                .collect();
            if allowed.is_empty() {
                return Err(refused(&host, addrs[0].ip()).into());
            }
            Ok(Box::new(allowed.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

pub fn resolver(policy: Policy) -> Arc<GuardedResolver> {
    Arc::new(GuardedResolver { policy })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_public_addresses_are_refused() {
        for bad in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fd00:ec2::254",
            "fc00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
            "2001:db8::1",
            "ff02::1",
            // IPv4 carried in IPv6, and reserved ranges outside global unicast.
            "::ffff:0:7f00:1",
            "64:ff9b:1::7f00:1",
            "64:ff9b::7f00:1",
            "2002:a9fe:a9fe::",
            "2002:7f00:1::1",
            "2001:db8:1:2:0:5efe:a00:1",
            "2607:f8b0::200:5efe:c0a8:101",
            "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "100::1",
            "100:0:0:1::1",
            "3fff::1",
            "3fff:fff::1",
            "5f00::1",
            "::7f00:1",
            "4000::1",
            "fec0::1",
        ] {
            assert!(!is_public(bad.parse().unwrap()), "{bad} passed");
        }
        for good in [
            "93.184.216.34",
            "8.8.8.8",
            "172.32.0.1",
            "2606:4700:4700::1111",
            "64:ff9b::808:808",
            "2002:808:808::1",
            "2607:f8b0::0:5efe:808:808",
            "3fff:1000::1",
            "2a00:1450:4001::200e",
        ] {
            assert!(is_public(good.parse().unwrap()), "{good} refused");
        }
    }

    #[test]
    fn forms_are_checked_before_resolution() {
        let p = Policy::default();
        assert!(
            check_form("http://example.com/h", p)
                .unwrap_err()
                .contains("https")
        );
        assert!(check_form("ftp://example.com/h", p).is_err());
        assert!(check_form("https://u:p@example.com/h", p).is_err());
        assert!(check_form("https://example.com/h", p).is_ok());
        assert!(
            check_form(
                "http://example.com/h",
                Policy {
                    allow_http: true,
                    ..p
                }
            )
            .is_ok()
        );
        let url = check_form("https://127.0.0.1/h", p).unwrap();
        assert!(check_literal(&url, p).unwrap_err().contains("127.0.0.1"));
        assert!(
            check_literal(
                &url,
                Policy {
                    allow_private: true,
                    ..p
                }
            )
            .is_ok()
        );
    }

    #[tokio::test]
    async fn a_name_resolving_to_loopback_is_refused() {
        let url = check_form("https://localhost:9/h", Policy::default()).unwrap();
        let e = check_reachable(&url, Policy::default()).await.unwrap_err();
        assert!(e.contains("not a public"), "{e}");
    }
}
