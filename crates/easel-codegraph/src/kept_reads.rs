//! The reads of the kept resolution units, as `resolve.bin` stores them: every distinct read
//! hash once, in one table, and each unit's reads as indices into it.
//!
//! A unit reads tens of keys out of tens of thousands, and most of them are read by hundreds of
//! units (a file's own key, a popular name, a module's imports), so one table of hashes (eight
//! bytes each) and per-unit lists of indices (sorted, written as differences: one or two bytes
//! each) take a fifth of the space that per-unit lists of 64-bit hashes did (a random `u64` is
//! ten bytes of postcard varint). Reading and writing the state is most of a one-file re-init,
//! so its size is its speed, and so is what is done to it: a unit's list stays encoded, in
//! memory as on disk, and the table only grows between compactions, so a reused unit's list is
//! copied as it is rather than decoded, renumbered and encoded again.

use foldhash::{HashMap, HashMapExt};
use serde::de::Visitor;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A unit's reads: indices into the [`Table`], ascending, as LEB128 differences from the
/// previous one (the first from zero).
#[derive(Default, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Reads(Vec<u8>);

impl Reads {
    /// The reads of these indices, in any order, repeated or not.
    pub(crate) fn of(mut idx: Vec<u32>) -> Reads {
        idx.sort_unstable();
        idx.dedup();
        let mut out = Vec::with_capacity(idx.len() * 2);
        let mut prev = 0;
        for i in idx {
            let mut d = i - prev;
            prev = i;
            while d >= 0x80 {
                out.push((d as u8) | 0x80);
                d >>= 7;
            }
            out.push(d as u8);
        }
        Reads(out)
    }

    /// The indices, ascending; on damaged bytes the list ends early, which [`Reads::fits`]
    /// rules out for a state that is used.
    pub(crate) fn indices(&self) -> impl Iterator<Item = u32> + '_ {
        let mut bytes = self.0.iter();
        let mut prev: u32 = 0;
        std::iter::from_fn(move || {
            let d = leb128(&mut bytes)?;
            prev = prev.checked_add(d)?;
            Some(prev)
        })
    }

    /// Whether the bytes are well formed, strictly ascending, and every index is in a table
    /// of `len` hashes (a damaged state is not used).
    pub(crate) fn fits(&self, len: usize) -> bool {
        let mut bytes = self.0.iter();
        let mut prev: Option<u32> = None;
        while bytes.len() > 0 {
            let Some(d) = leb128(&mut bytes) else {
                return false;
            };
            let i = match prev {
                None => d,
                Some(_) if d == 0 => return false,
                Some(p) => match p.checked_add(d) {
                    Some(i) => i,
                    None => return false,
                },
            };
            if i as usize >= len {
                return false;
            }
            prev = Some(i);
        }
        true
    }
}

/// One LEB128 number of at most 32 bits; none when the bytes end first or it is longer.
fn leb128(bytes: &mut std::slice::Iter<u8>) -> Option<u32> {
    let mut d: u64 = 0;
    for shift in [0, 7, 14, 21, 28] {
        let b = *bytes.next()?;
        d |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return u32::try_from(d).ok();
        }
    }
    None
}

impl Serialize for Reads {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Reads {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Reads;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Reads, E> {
                Ok(Reads(v.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Reads, E> {
                Ok(Reads(v))
            }
        }
        d.deserialize_bytes(V)
    }
}

/// Every hash some kept unit read, each once. Hashes are appended as new reads come; those
/// no unit reads any more stay until the table has grown to twice its size after the last
/// compaction, when it is made again from the reads alone.
#[derive(Serialize, Deserialize, Default)]
pub(crate) struct Table {
    pub(crate) hashes: Vec<u64>,
    /// How many hashes the table had when it was last made from the reads alone.
    compacted: u32,
}

impl Table {
    fn grown(&self) -> bool {
        self.hashes.len() > 2 * self.compacted as usize + 4096
    }
}

/// Where a unit's reads come from when the next state is put together.
pub(crate) enum Got<'s> {
    /// A reused unit's reads, indices into the old table.
    Kept(&'s Reads),
    /// A redone unit's reads: hashes.
    New(Vec<u64>),
}

/// Hands out table indices, adding the hashes not yet in the table.
struct Numbering {
    hashes: Vec<u64>,
    index: HashMap<u64, u32>,
}

impl Numbering {
    fn new(hashes: Vec<u64>) -> Numbering {
        let mut index = HashMap::with_capacity(hashes.len());
        index.extend(hashes.iter().enumerate().map(|(i, &h)| (h, i as u32)));
        Numbering { hashes, index }
    }

    fn of(&mut self, h: u64) -> u32 {
        *self.index.entry(h).or_insert_with(|| {
            self.hashes.push(h);
            (self.hashes.len() - 1) as u32
        })
    }
}

/// The table of the next state and every unit's reads in it, in the order given.
pub(crate) fn renumber(old: &Table, units: Vec<Got>) -> (Table, Vec<Reads>) {
    if old.grown() {
        // Made again from the reads alone: the hashes no unit reads are dropped.
        let mut next = Numbering::new(Vec::new());
        let reads = units
            .into_iter()
            .map(|u| {
                let idx = match u {
                    Got::Kept(r) => r
                        .indices()
                        .filter_map(|i| old.hashes.get(i as usize))
                        .map(|&h| next.of(h))
                        .collect(),
                    Got::New(h) => h.into_iter().map(|h| next.of(h)).collect(),
                };
                Reads::of(idx)
            })
            .collect();
        let compacted = next.hashes.len() as u32;
        return (
            Table {
                hashes: next.hashes,
                compacted,
            },
            reads,
        );
    }
    let mut next = Numbering::new(old.hashes.clone());
    let reads = units
        .into_iter()
        .map(|u| match u {
            Got::Kept(r) => r.clone(),
            Got::New(h) => Reads::of(h.into_iter().map(|h| next.of(h)).collect()),
        })
        .collect();
    // A first table (a cold build) is as compact as a table gets.
    let compacted = match old.hashes.is_empty() {
        true => next.hashes.len() as u32,
        false => old.compacted,
    };
    let table = Table {
        hashes: next.hashes,
        compacted,
    };
    (table, reads)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hashes(t: &Table, r: &Reads) -> Vec<u64> {
        r.indices().map(|i| t.hashes[i as usize]).collect()
    }

    #[test]
    fn reads_round_trip_as_small_differences() {
        let r = Reads::of(vec![201, 0, 1, 200, 1, 70_000, u32::MAX]);
        assert_eq!(
            r.indices().collect::<Vec<_>>(),
            vec![0, 1, 200, 201, 70_000, u32::MAX]
        );
        // 0, 1 and 1 take a byte each, 199 and 69,799 two and three.
        assert_eq!(r.0.len(), 1 + 1 + 2 + 1 + 3 + 5);
        let bytes = postcard::to_stdvec(&r).unwrap();
        assert_eq!(postcard::from_bytes::<Reads>(&bytes).unwrap(), r);
        assert!(r.fits(u32::MAX as usize + 1));
    }

    /// Lists cut short, too long a number, not ascending, or past the table are damage.
    #[test]
    fn damaged_reads_do_not_fit() {
        assert!(Reads::default().fits(0));
        assert!(Reads::of(vec![0, 5]).fits(6));
        assert!(!Reads::of(vec![0, 6]).fits(6));
        assert!(!Reads(vec![3, 0x80]).fits(100));
        assert!(!Reads(vec![0xff; 6]).fits(usize::MAX));
        assert!(!Reads(vec![3, 0]).fits(100));
        assert!(!Reads(vec![0xff, 0xff, 0xff, 0xff, 0x1f]).fits(usize::MAX));
    }

    /// Every unit reads the same hashes through the next table as before; a kept unit's
    /// list is the same bytes.
    #[test]
    fn renumbering_keeps_every_units_hashes() {
        let old = Table {
            hashes: vec![50, 10, 40, 20, 30],
            compacted: 5,
        };
        let kept_a = Reads::of(vec![1, 2]);
        let kept_b = Reads::of(vec![2, 4]);
        let (table, reads) = renumber(
            &old,
            vec![
                Got::Kept(&kept_a),
                Got::New(vec![5, 20, 45, 5]),
                Got::Kept(&kept_b),
                Got::New(vec![]),
            ],
        );
        assert_eq!(reads[0], kept_a);
        assert_eq!(reads[2], kept_b);
        let got: Vec<Vec<u64>> = reads.iter().map(|r| hashes(&table, r)).collect();
        assert_eq!(
            got,
            vec![vec![10, 40], vec![20, 5, 45], vec![40, 30], vec![]]
        );
        assert_eq!(table.hashes.len(), 7);
    }

    /// Hashes no unit reads any more are dropped once the table has doubled, and not before
    /// a cold build's table has grown at all.
    #[test]
    fn a_grown_table_is_made_again_from_the_reads() {
        let (first, _) = renumber(&Table::default(), vec![Got::New((0..5000).collect())]);
        assert!(!first.grown());
        let mut old = first;
        old.hashes.extend(5000..20_000);
        assert!(old.grown());
        let kept = Reads::of(vec![3, 12_000]);
        let (table, reads) = renumber(&old, vec![Got::Kept(&kept), Got::New(vec![7, 99_999])]);
        assert_eq!(table.hashes.len(), 4);
        assert_eq!(hashes(&table, &reads[0]), vec![3, 12_000]);
        assert_eq!(hashes(&table, &reads[1]), vec![7, 99_999]);
        assert!(!table.grown());
    }
}
