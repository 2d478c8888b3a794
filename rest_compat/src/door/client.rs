//! Who is at the door: the request's id, and the client's address, told from the peer and
//! the `X-Forwarded-For` entries our own proxies wrote (never from what the client wrote), and
//! the bucket its anonymous budget is counted in.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request};
use signet_accounts::keys::canonical;

use crate::state::AppState;

#[derive(Clone, Debug)]
pub struct RequestId(pub Arc<str>);

#[derive(Clone, Copy, Debug)]
pub struct ClientIp(pub IpAddr);

pub(super) fn client_ip(state: &AppState, req: &Request) -> IpAddr {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| canonical(c.0.ip()))
        .unwrap_or(IpAddr::from([127, 0, 0, 1]));
    let trusted = |ip: &IpAddr| state.config.trusted_proxies.iter().any(|n| n.contains(ip));
    if !trusted(&peer) {
        return peer;
    }
    let entries: Vec<&str> = req
        .headers()
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|v| v.to_str().unwrap_or("unknown").split(','))
        .collect();
    forwarded_client(peer, &entries, trusted)
}

/// The address a caller behind our proxies is known by, from `X-Forwarded-For` entries read
/// from the right: every entry right of the client was written by one of our proxies, so the
/// first entry that is not one of them is the client, and anything left of it could have
/// been written by the client itself. No entry is skipped: one that is not an address
/// (`unknown`, garbage) ends the walk as [`UNKNOWN_CLIENT`], which no allow-list of real
/// addresses contains.
pub fn forwarded_client(
    peer: IpAddr,
    entries: &[&str],
    trusted: impl Fn(&IpAddr) -> bool,
) -> IpAddr {
    let mut client = peer;
    for entry in entries.iter().rev() {
        match forwarded_ip(entry) {
            Some(ip) if trusted(&ip) => client = ip,
            Some(ip) => return ip,
            None => return UNKNOWN_CLIENT,
        }
    }
    client
}

/// The client of a forwarded request whose address a proxy could not tell.
pub const UNKNOWN_CLIENT: IpAddr = IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED);

/// One `X-Forwarded-For` entry: an address with or without a port, IPv6 in brackets or bare.
fn forwarded_ip(entry: &str) -> Option<IpAddr> {
    let e = entry.trim().trim_matches('"');
    if let Ok(ip) = e.parse::<IpAddr>() {
        return Some(canonical(ip));
    }
    if let Some(rest) = e.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let port_ok = after.is_empty()
            || after
                .strip_prefix(':')
                .is_some_and(|p| p.parse::<u16>().is_ok());
        return port_ok
            .then(|| inside.parse::<std::net::Ipv6Addr>().ok())
            .flatten()
            .map(|ip| canonical(IpAddr::V6(ip)));
    }
    let (host, port) = e.split_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse::<std::net::Ipv4Addr>()
        .ok()
        .map(|ip| canonical(IpAddr::V4(ip)))
}

/// The anonymous budget's bucket: an IPv4 address, or an IPv6 address's /64, which one
/// subscriber usually holds whole.
pub fn anonymous_bucket(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => format!("ip:{v4}"),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("ip:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_entries_are_walked_from_the_right_without_skipping() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let trusted = |ip: &IpAddr| ip.to_string().starts_with("10.0.0.");
        let client = |entries: &[&str]| forwarded_client(proxy, entries, trusted);
        assert_eq!(client(&[]), proxy);
        assert_eq!(
            client(&["203.0.113.5"]),
            "203.0.113.5".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            client(&["1.1.1.1", " 203.0.113.5:41234"]).to_string(),
            "203.0.113.5"
        );
        assert_eq!(
            client(&["1.1.1.1", "[2001:db8::7]:41234"]).to_string(),
            "2001:db8::7"
        );
        assert_eq!(
            client(&["1.1.1.1", "[2001:db8::7]"]).to_string(),
            "2001:db8::7"
        );
        assert_eq!(
            client(&["1.1.1.1", "2001:db8::7"]).to_string(),
            "2001:db8::7"
        );
        assert_eq!(
            client(&["1.1.1.1", "10.0.0.2", "10.0.0.3"]).to_string(),
            "1.1.1.1"
        );
        assert_eq!(
            client(&["1.1.1.1", "::ffff:10.0.0.2"]).to_string(),
            "1.1.1.1"
        );
        for garbled in [
            "unknown",
            "",
            "1.2.3.4:x",
            "[::1",
            "_hidden",
            "1.2.3.4:99999",
        ] {
            assert_eq!(client(&["1.1.1.1", garbled]), UNKNOWN_CLIENT, "{garbled:?}");
        }
    }

    #[test]
    fn ipv6_clients_share_a_budget_per_64() {
        let a = anonymous_bucket("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = anonymous_bucket("2001:db8:1:2:ffff:1:2:3".parse().unwrap());
        let c = anonymous_bucket("2001:db8:1:3::1".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a, "ip:2001:db8:1:2::/64");
        assert_eq!(
            anonymous_bucket("192.0.2.1".parse().unwrap()),
            "ip:192.0.2.1"
        );
    }
}
