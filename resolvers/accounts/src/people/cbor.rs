//! The little of CBOR (RFC 8949) that WebAuthn needs: an authenticator's attestation object
//! and its COSE public key. Definite lengths only (WebAuthn's CTAP2 canonical form), at most
//! [`MAX_DEPTH`] levels and [`MAX_ITEMS`] items in all, so a crafted object costs nothing.

/// A decoded item.
#[derive(Clone, Debug, PartialEq)]
pub enum Cbor {
    Int(i128),
    Bytes(Vec<u8>),
    Text(String),
    Array(Vec<Cbor>),
    Map(Vec<(Cbor, Cbor)>),
    Bool(bool),
    Null,
}

const MAX_DEPTH: usize = 8;
const MAX_ITEMS: usize = 512;

impl Cbor {
    /// The value under an integer key of a map (COSE keys use small integers).
    pub fn int_key(&self, key: i128) -> Option<&Cbor> {
        match self {
            Cbor::Map(pairs) => pairs
                .iter()
                .find(|(k, _)| *k == Cbor::Int(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value under a text key of a map.
    pub fn text_key(&self, key: &str) -> Option<&Cbor> {
        match self {
            Cbor::Map(pairs) => pairs
                .iter()
                .find(|(k, _)| matches!(k, Cbor::Text(t) if t == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Cbor::Bytes(b) => Some(b),
            _ => None,
        }
    }

    pub fn int(&self) -> Option<i128> {
        match self {
            Cbor::Int(i) => Some(*i),
            _ => None,
        }
    }
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
    items: usize,
}

/// Decodes the first item of `data`; answers it and how many bytes it took.
pub fn decode(data: &[u8]) -> Result<(Cbor, usize), String> {
    let mut r = Reader {
        data,
        at: 0,
        items: 0,
    };
    let item = r.item(0)?;
    Ok((item, r.at))
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).ok_or("length overflows")?;
        let out = self.data.get(self.at..end).ok_or("ends early")?;
        self.at = end;
        Ok(out)
    }

    /// The argument of a head whose additional information is `info`.
    fn argument(&mut self, info: u8) -> Result<u64, String> {
        Ok(match info {
            0..=23 => info as u64,
            24 => self.take(1)?[0] as u64,
            25 => u16::from_be_bytes(self.take(2)?.try_into().map_err(|_| "short")?) as u64,
            26 => u32::from_be_bytes(self.take(4)?.try_into().map_err(|_| "short")?) as u64,
            27 => u64::from_be_bytes(self.take(8)?.try_into().map_err(|_| "short")?),
            _ => return Err("indefinite lengths are not used by WebAuthn".into()),
        })
    }

    fn length(&mut self, info: u8) -> Result<usize, String> {
        let n = self.argument(info)?;
        // Nothing may claim more than the bytes that are left.
        if n > (self.data.len() - self.at) as u64 {
            return Err("a length longer than the data".into());
        }
        Ok(n as usize)
    }

    fn item(&mut self, depth: usize) -> Result<Cbor, String> {
        if depth > MAX_DEPTH {
            return Err("nested too deep".into());
        }
        self.items += 1;
        if self.items > MAX_ITEMS {
            return Err("too many items".into());
        }
        let head = *self.take(1)?.first().ok_or("ends early")?;
        let (major, info) = (head >> 5, head & 0x1f);
        Ok(match major {
            0 => Cbor::Int(self.argument(info)? as i128),
            1 => Cbor::Int(-1 - self.argument(info)? as i128),
            2 => {
                let n = self.length(info)?;
                Cbor::Bytes(self.take(n)?.to_vec())
            }
            3 => {
                let n = self.length(info)?;
                Cbor::Text(
                    String::from_utf8(self.take(n)?.to_vec()).map_err(|_| "text is not UTF-8")?,
                )
            }
            4 => {
                let n = self.length(info)?;
                (0..n)
                    .map(|_| self.item(depth + 1))
                    .collect::<Result<_, _>>()
                    .map(Cbor::Array)?
            }
            5 => {
                let n = self.length(info)?;
                let mut pairs = Vec::with_capacity(n.min(64));
                for _ in 0..n {
                    let k = self.item(depth + 1)?;
                    let v = self.item(depth + 1)?;
                    pairs.push((k, v));
                }
                Cbor::Map(pairs)
            }
            7 => match info {
                20 => Cbor::Bool(false),
                21 => Cbor::Bool(true),
                22 | 23 => Cbor::Null,
                _ => return Err("floats and other simple values are not used by WebAuthn".into()),
            },
            _ => return Err("tags are not used by WebAuthn".into()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_webauthn_writes_and_refuses_what_it_does_not() {
        // {"fmt": "none", 1: -7, 2: h'0102'}
        let data = [
            0xa3, 0x63, b'f', b'm', b't', 0x64, b'n', b'o', b'n', b'e', 0x01, 0x26, 0x02, 0x42, 1,
            2,
        ];
        let (item, used) = decode(&data).unwrap();
        assert_eq!(used, data.len());
        assert_eq!(item.text_key("fmt"), Some(&Cbor::Text("none".into())));
        assert_eq!(item.int_key(1).and_then(Cbor::int), Some(-7));
        assert_eq!(item.int_key(2).and_then(Cbor::bytes), Some(&[1u8, 2][..]));
        // A length past the end, an indefinite length, and deep nesting are refused.
        assert!(decode(&[0x5a, 0xff, 0xff, 0xff, 0xff]).is_err());
        assert!(decode(&[0x5f]).is_err());
        assert!(decode(&[0x81; 64]).is_err());
        // A map claiming billions of pairs costs no memory.
        assert!(decode(&[0xbb, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff]).is_err());
    }
}
