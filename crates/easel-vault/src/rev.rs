//! File revisions: a short, stable fingerprint of a file's bytes.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// A file's revision: 16 lowercase hex digits, the first 8 bytes of the SHA-256 of its bytes.
///
/// ```
/// use easel_vault::Rev;
/// let rev = Rev::of(b"hello");
/// assert_eq!(rev.to_string(), "2cf24dba5fb0a30e");
/// assert_eq!("2cf24dba5fb0a30e".parse::<Rev>().unwrap(), rev);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rev([u8; 8]);

impl Rev {
    /// The revision of these bytes.
    pub fn of(bytes: &[u8]) -> Rev {
        Rev::from_digest(&Sha256::digest(bytes))
    }

    /// The revision whose full SHA-256 digest is `digest`; blobs are named by the full digest,
    /// and a rev is its prefix.
    pub(crate) fn from_digest(digest: &[u8]) -> Rev {
        let mut out = [0u8; 8];
        out.copy_from_slice(&digest[..8]);
        Rev(out)
    }
}

impl fmt::Display for Rev {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Rev {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rev({self})")
    }
}

/// Why a string is not a [`Rev`].
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
#[error("'{0}' is not a revision: expected 16 hex digits such as 2cf24dba5fb0a30e")]
pub struct ParseRevError(String);

impl FromStr for Rev {
    type Err = ParseRevError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseRevError(s.to_string());
        // from_str_radix alone would accept a sign, so check the digits first.
        if s.len() != 16 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let mut out = [0u8; 8];
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(Rev(out))
    }
}

impl Serialize for Rev {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Rev {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rejects_malformed_revisions() {
        for bad in [
            "",
            "abc",
            "2cf24dba5fb0a30",
            "2cf24dba5fb0a30e0",
            "zzf24dba5fb0a30e",
            "+cf24dba5fb0a30e",
            "é2f24dba5fb0a30",
        ] {
            assert!(bad.parse::<Rev>().is_err(), "{bad}");
        }
    }

    #[test]
    fn serializes_as_a_json_string() {
        let rev = Rev::of(b"");
        let json = serde_json::to_string(&rev).unwrap();
        assert_eq!(json, "\"e3b0c44298fc1c14\"");
        assert_eq!(serde_json::from_str::<Rev>(&json).unwrap(), rev);
    }

    proptest! {
        #[test]
        fn display_parse_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let rev = Rev::of(&bytes);
            let text = rev.to_string();
            prop_assert_eq!(text.len(), 16);
            prop_assert!(text.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
            prop_assert_eq!(text.parse::<Rev>().unwrap(), rev);
        }
    }
}
