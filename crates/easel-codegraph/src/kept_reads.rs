//! The reads of the kept resolution units, as `resolve.bin` stores them: every distinct read
//! hash once, in one sorted table, and each unit's reads as indices into it.
//!
//! A unit reads tens of keys out of tens of thousands, and most of them are read by hundreds of
//! units (a file's own key, a popular name, a module's imports), so one table of hashes (eight
//! bytes each) and per-unit lists of indices (sorted, written as differences: one or two bytes
//! each) take a third of the space that per-unit lists of 64-bit hashes did (a random `u64` is
//! ten bytes of postcard varint). Reading and writing the state is most of a one-file re-init,
//! so its size is its speed.

use serde::de::{Error as _, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Sorted, distinct numbers, written as the first and then the differences between neighbours.
#[derive(Default, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Sorted<T>(pub(crate) Vec<T>);

/// A unit's reads: indices into [`Table`], ascending.
pub(crate) type Reads = Sorted<u32>;

/// Every hash some kept unit read, ascending.
pub(crate) type Table = Sorted<u64>;

/// The numbers [`Sorted`] holds.
pub(crate) trait Num: Copy + Ord + Default + Serialize + for<'de> Deserialize<'de> {
    fn minus(self, o: Self) -> Self;
    fn checked_plus(self, o: Self) -> Option<Self>;
}

impl Num for u32 {
    fn minus(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
    fn checked_plus(self, o: Self) -> Option<Self> {
        self.checked_add(o)
    }
}

impl Num for u64 {
    fn minus(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
    fn checked_plus(self, o: Self) -> Option<Self> {
        self.checked_add(o)
    }
}

impl<T: Num> Serialize for Sorted<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        let mut prev = T::default();
        for &x in &self.0 {
            seq.serialize_element(&x.minus(prev))?;
            prev = x;
        }
        seq.end()
    }
}

impl<'de, T: Num> Deserialize<'de> for Sorted<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Num> Visitor<'de> for V<T> {
            type Value = Sorted<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("ascending numbers as differences")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Sorted<T>, A::Error> {
                // The length comes from the file: a damaged one must not reserve gigabytes.
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
                let mut prev = T::default();
                while let Some(delta) = seq.next_element::<T>()? {
                    let x = prev
                        .checked_plus(delta)
                        .ok_or_else(|| A::Error::custom("numbers out of order"))?;
                    // Not ascending (a zero difference after the first) is damage too.
                    if !out.is_empty() && x == prev {
                        return Err(A::Error::custom("numbers out of order"));
                    }
                    out.push(x);
                    prev = x;
                }
                Ok(Sorted(out))
            }
        }
        d.deserialize_seq(V(std::marker::PhantomData))
    }
}

impl Reads {
    /// Whether every index is in a table of `len` hashes (a damaged state is not used).
    pub(crate) fn fits(&self, len: usize) -> bool {
        self.0.last().is_none_or(|&i| (i as usize) < len)
    }
}

/// Where a unit's reads come from when the next state is put together.
pub(crate) enum Got<'s> {
    /// A reused unit's reads, indices into the old table.
    Kept(&'s Reads),
    /// A redone unit's reads: hashes, ascending and distinct (`Resolver::stable`).
    New(Vec<u64>),
}

#[cfg(test)]
impl Got<'_> {
    /// The hashes, through the old table for kept reads.
    pub(crate) fn hashes(&self, old: &[u64]) -> Vec<u64> {
        match self {
            Got::Kept(r) => {
                r.0.iter()
                    .filter_map(|&i| old.get(i as usize).copied())
                    .collect()
            }
            Got::New(h) => h.clone(),
        }
    }
}

/// The table of the next state (the hashes the units read, no others: the reads of units
/// that were redone or went away are dropped, so the table does not grow from build to
/// build) and every unit's reads as indices into it, in the order given.
pub(crate) fn renumber(old: &[u64], units: Vec<Got>) -> (Table, Vec<Reads>) {
    let mut used = vec![false; old.len()];
    let mut fresh: Vec<u64> = Vec::new();
    for u in &units {
        match u {
            Got::Kept(r) => {
                for &i in &r.0 {
                    if let Some(u) = used.get_mut(i as usize) {
                        *u = true;
                    }
                }
            }
            Got::New(h) => fresh.extend_from_slice(h),
        }
    }
    fresh.sort_unstable();
    fresh.dedup();
    // Merge the old hashes still read with the new ones, noting where each old one went.
    let mut table = Vec::with_capacity(fresh.len() + old.len());
    let mut moved = vec![u32::MAX; old.len()];
    let mut f = fresh.iter().copied().peekable();
    for (i, &h) in old.iter().enumerate() {
        if !used[i] {
            continue;
        }
        while let Some(n) = f.next_if(|&n| n < h) {
            table.push(n);
        }
        f.next_if_eq(&h);
        moved[i] = table.len() as u32;
        table.push(h);
    }
    table.extend(f);
    let reads = units
        .into_iter()
        .map(|u| match u {
            // Renumbering keeps the order: the old table and the new one are both ascending.
            Got::Kept(r) => Sorted(
                r.0.iter()
                    .filter_map(|&i| moved.get(i as usize).copied())
                    .collect(),
            ),
            Got::New(h) => Sorted(
                h.iter()
                    .filter_map(|x| table.binary_search(x).ok().map(|i| i as u32))
                    .collect(),
            ),
        })
        .collect();
    (Sorted(table), reads)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_lists_round_trip_as_differences() {
        let t: Table = Sorted(vec![3, 9, u64::MAX - 1, u64::MAX]);
        let bytes = postcard::to_stdvec(&t).unwrap();
        assert_eq!(postcard::from_bytes::<Table>(&bytes).unwrap(), t);
        let r: Reads = Sorted(vec![0, 1, 200, 201]);
        let bytes = postcard::to_stdvec(&r).unwrap();
        // Four differences under 128: a length and a byte each.
        assert_eq!(bytes.len(), 1 + 3 + 2);
        assert_eq!(postcard::from_bytes::<Reads>(&bytes).unwrap(), r);
    }

    /// Lists that are not ascending, or overflow, are damage, not numbers.
    #[test]
    fn damaged_lists_are_refused() {
        let overflow = postcard::to_stdvec(&vec![u32::MAX, 1]).unwrap();
        assert!(postcard::from_bytes::<Reads>(&overflow).is_err());
        let repeated = postcard::to_stdvec(&vec![4u32, 0]).unwrap();
        assert!(postcard::from_bytes::<Reads>(&repeated).is_err());
        assert!(Sorted(vec![0u32, 5]).fits(6));
        assert!(!Sorted(vec![0u32, 6]).fits(6));
    }

    /// The next table holds exactly the hashes still read, and every unit reads the same
    /// hashes through it as before.
    #[test]
    fn renumbering_keeps_every_units_hashes_and_drops_the_rest() {
        let old = vec![10, 20, 30, 40, 50];
        let kept_a: Reads = Sorted(vec![0, 3]);
        let kept_b: Reads = Sorted(vec![3, 4]);
        let units = vec![
            Got::Kept(&kept_a),
            Got::New(vec![5, 20, 45]),
            Got::Kept(&kept_b),
            Got::New(vec![]),
        ];
        let want: Vec<Vec<u64>> = units.iter().map(|u| u.hashes(&old)).collect();
        let (table, reads) = renumber(&old, units);
        // 30 is read by no unit any more.
        assert_eq!(table.0, vec![5, 10, 20, 40, 45, 50]);
        let got: Vec<Vec<u64>> = reads
            .iter()
            .map(|r| Got::Kept(r).hashes(&table.0))
            .collect();
        assert_eq!(got, want);
        assert!(reads.iter().all(|r| r.0.is_sorted()));
    }
}
