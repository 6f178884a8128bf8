//! `.codecanvas/graph.json`, written so that the next build after a small change copies the
//! bytes of every file whose pieces of the graph are unchanged instead of encoding them again.
//!
//! The graph lists each file's pieces together, in file order, in five runs: nodes, `CONTAINS`
//! edges, other edges, unresolved calls and builtin calls (see [`crate::incremental`]). The
//! byte range of each piece in `graph.json` is kept in `.codecanvas/cache/json.bin` with the
//! stamp of the `graph.json` it describes and the digest of the graph's inputs. Next time, a
//! piece that the new build kept from the old graph is copied from the old file with
//! `copy_file_range` (through [`std::io::copy`]), runs of neighbouring pieces in one call; only
//! the changed files' pieces are encoded. The output is byte for byte what encoding the whole
//! graph gives (a test holds it to that). When the index does not describe the `graph.json` on
//! disk (edited, replaced, another build), the whole graph is encoded.

use crate::cache::{self, CACHE_DIR, FORMAT, Stamp};
use crate::error::GraphError;
use crate::model::Graph;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const INDEX_FILE: &str = "json.bin";
const INDEX_FORMAT: &str = "graph-json-1";

/// Pieces per file: nodes, `CONTAINS` edges, other edges, unresolved calls, builtin calls.
const PIECES: usize = 5;

/// How a built graph is laid out by file, and which of its pieces are the last build's.
#[derive(Debug, Clone, Default)]
pub(crate) struct Layout {
    /// The inputs digest of the graph of the last build, whose pieces are reused.
    pub(crate) old_digest: Option<[u8; 32]>,
    /// The inputs digest of this graph.
    pub(crate) digest: [u8; 32],
    /// Per file, the number of elements in each piece.
    pub(crate) counts: Vec<[u32; PIECES]>,
    /// Per file, the old file whose nodes and `CONTAINS` edges these are.
    pub(crate) same_nodes: Vec<Option<usize>>,
    /// Per file, the old file whose other edges, unresolved and builtin calls these are.
    pub(crate) same_edges: Vec<Option<usize>>,
}

impl Layout {
    fn kept(&self, fi: usize, piece: usize) -> Option<usize> {
        match piece {
            0 | 1 => self.same_nodes.get(fi).copied().flatten(),
            _ => self.same_edges.get(fi).copied().flatten(),
        }
    }

    /// Whether the counts add up to the graph's lists.
    fn fits(&self, g: &Graph) -> bool {
        let total = |p: usize| self.counts.iter().map(|c| c[p] as usize).sum::<usize>();
        self.counts.len() == self.same_nodes.len()
            && self.counts.len() == self.same_edges.len()
            && total(0) == g.nodes.len()
            && total(1) + total(2) == g.edges.len()
            && total(3) == g.unresolved.len()
            && total(4) == g.builtin_calls.len()
    }
}

/// Where each file's pieces are in a `graph.json`.
#[derive(Serialize, Deserialize)]
struct Index {
    format: String,
    digest: [u8; 32],
    stamp: Stamp,
    /// Per file: each piece's element count and byte range.
    pieces: Vec<[(u32, u64, u64); PIECES]>,
}

fn load_index(root: &Path) -> Option<Index> {
    let bytes = std::fs::read(root.join(CACHE_DIR).join(INDEX_FILE)).ok()?;
    let (format, _) = postcard::take_from_bytes::<&str>(&bytes).ok()?;
    if format != index_format() {
        return None;
    }
    postcard::from_bytes(&bytes).ok()
}

fn index_format() -> String {
    format!("{FORMAT}/{INDEX_FORMAT}")
}

/// Writes `graph.json` under `root/.codecanvas/`, splicing unchanged pieces from the last one
/// when `layout` says which they are, and keeps the index for the next build.
pub(crate) fn save(
    root: &Path,
    graph: &Graph,
    layout: Option<&Layout>,
) -> Result<PathBuf, GraphError> {
    let path = crate::graph_path(root);
    let dir = root.join(".codecanvas");
    std::fs::create_dir_all(&dir).map_err(|e| GraphError::Io {
        path: dir.clone(),
        source: e,
    })?;
    let layout = layout.filter(|l| l.fits(graph));
    let tmp = dir.join(format!("graph.json.{}.tmp", std::process::id()));
    let io = |p: &Path, e: io::Error| GraphError::Io {
        path: p.to_path_buf(),
        source: e,
    };
    let t = std::time::Instant::now();
    let old = layout.and_then(|l| usable_old(root, &path, l));
    let spliced = old.is_some();
    let written = match (layout, old) {
        (Some(l), Some((index, file))) => {
            match write_to(&tmp, graph, l, Some((&index, &file))) {
                Ok(p) => Ok(Some(p)),
                // The old file changed under us: encode everything instead.
                Err(e) => {
                    tracing::debug!("graph.json not spliced: {e}");
                    write_to(&tmp, graph, l, None).map(Some)
                }
            }
        }
        (Some(l), None) => write_to(&tmp, graph, l, None).map(Some),
        (None, _) => write_whole(&tmp, graph).map(|()| None),
    };
    let pieces = match written {
        Ok(p) => p,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(&tmp, e));
        }
    };
    install(&tmp, &path).map_err(|e| io(&path, e))?;
    tracing::debug!(us = t.elapsed().as_micros(), spliced, "graph.json written");
    let index_path = root.join(CACHE_DIR).join(INDEX_FILE);
    match (layout, pieces) {
        (Some(l), Some(pieces)) => {
            let stamp = std::fs::metadata(&path).ok().and_then(|m| Stamp::of(&m));
            if let Some(stamp) = stamp {
                let index = Index {
                    format: index_format(),
                    digest: l.digest,
                    stamp,
                    pieces,
                };
                let cache_dir = root.join(CACHE_DIR);
                std::fs::create_dir_all(&cache_dir).map_err(|e| io(&cache_dir, e))?;
                cache::write_encoded(&cache_dir, INDEX_FILE, &index)?;
            }
        }
        // A graph.json the index does not describe: the old index must not be used.
        _ => match std::fs::remove_file(&index_path) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(&index_path, e)),
        },
    }
    Ok(path)
}

/// Puts the finished `tmp` in place of `path`. On Linux the two names are exchanged in one
/// step and the old file (now under `tmp`) removed: `path` never goes missing for a reader,
/// and ext4 does not write out the new file's blocks at once as it does on a rename over an
/// existing file (`auto_da_alloc`: 4.4 ms for a 4.9 MB `graph.json`, against 0.05 ms).
fn install(tmp: &Path, path: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        // Only over a regular file: anything else is for a plain rename to refuse or replace.
        let file = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file());
        if file && renameat_with(CWD, tmp, CWD, path, RenameFlags::EXCHANGE).is_ok() {
            return std::fs::remove_file(tmp);
        }
    }
    std::fs::rename(tmp, path)
}

/// The last `graph.json` and its index, when the index describes that very file and the graph
/// whose pieces `layout` reuses.
fn usable_old(root: &Path, path: &Path, layout: &Layout) -> Option<(Index, File)> {
    let old_digest = layout.old_digest?;
    let index = load_index(root)?;
    if index.digest != old_digest {
        return None;
    }
    let file = File::open(path).ok()?;
    let stamp = Stamp::of(&file.metadata().ok()?)?;
    (stamp == index.stamp).then_some((index, file))
}

fn write_whole(tmp: &Path, graph: &Graph) -> io::Result<()> {
    let file = File::create(tmp)?;
    let mut out = io::BufWriter::with_capacity(cache::WRITE_BUFFER, file);
    serde_json::to_writer(&mut out, graph).map_err(io::Error::other)?;
    out.flush()
}

/// The output file with its position, and a run of old bytes waiting to be copied (copied
/// when the next piece does not follow it in the old file).
struct Out<'a> {
    w: io::BufWriter<File>,
    pos: u64,
    old: Option<&'a File>,
    pending: Option<(u64, u64)>,
}

impl Out<'_> {
    fn bytes(&mut self, b: &[u8]) -> io::Result<()> {
        self.flush_pending()?;
        self.w.write_all(b)?;
        self.pos += b.len() as u64;
        Ok(())
    }

    fn flush_pending(&mut self) -> io::Result<()> {
        let (Some((start, end)), Some(mut old)) = (self.pending.take(), self.old) else {
            return Ok(());
        };
        self.w.flush()?;
        old.seek(SeekFrom::Start(start))?;
        let want = end - start;
        let copied = io::copy(&mut old.take(want), self.w.get_mut())?;
        if copied != want {
            return Err(io::Error::other(
                "the last graph.json is shorter than its index says",
            ));
        }
        Ok(())
    }

    /// Copies old bytes `start..end`, joined to the pending run when it ends one byte (the
    /// comma between two elements) before.
    fn copy(&mut self, start: u64, end: u64, comma: bool) -> io::Result<()> {
        match &mut self.pending {
            Some((_, e)) if comma && *e + 1 == start => {
                *e = end;
                self.pos += 1;
            }
            _ => {
                if comma {
                    self.bytes(b",")?;
                }
                self.flush_pending()?;
                self.pending = Some((start, end));
            }
        }
        self.pos += end - start;
        Ok(())
    }
}

/// Writes the graph piece by piece, copying the pieces `old` holds; returns each piece's
/// count and range in the new file.
fn write_to(
    tmp: &Path,
    g: &Graph,
    layout: &Layout,
    old: Option<(&Index, &File)>,
) -> io::Result<Vec<[(u32, u64, u64); PIECES]>> {
    let file = File::create(tmp)?;
    let mut out = Out {
        w: io::BufWriter::with_capacity(cache::WRITE_BUFFER, file),
        pos: 0,
        old: old.map(|(_, f)| f),
        pending: None,
    };
    let n = layout.counts.len();
    let mut ranges = vec![[(0u32, 0u64, 0u64); PIECES]; n];
    // Where each file's elements start in the graph's lists.
    let mut starts = vec![[0usize; PIECES]; n];
    let mut at = [
        0usize,
        0,
        layout.counts.iter().map(|c| c[1] as usize).sum(),
        0,
        0,
    ];
    for (fi, c) in layout.counts.iter().enumerate() {
        starts[fi] = at;
        for (a, n) in at.iter_mut().zip(c) {
            *a += *n as usize;
        }
    }
    let mut buf = Vec::new();
    for (p, head) in [
        (0, &b"{\"nodes\":["[..]),
        (1, b"],\"edges\":["),
        (2, b""),
        (3, b"],\"unresolved\":["),
        (4, b"],\"builtin_calls\":["),
    ] {
        if !head.is_empty() {
            out.bytes(head)?;
        }
        // Other edges follow `CONTAINS` edges in the same list.
        let mut any = p == 2 && layout.counts.iter().any(|c| c[1] > 0);
        for fi in 0..n {
            let count = layout.counts[fi][p];
            if count == 0 {
                ranges[fi][p] = (0, out.pos, out.pos);
                continue;
            }
            let reused = old.and_then(|(index, _)| {
                let o = layout.kept(fi, p)?;
                let (c, s, e) = *index.pieces.get(o)?.get(p)?;
                (c == count && s < e).then_some((s, e))
            });
            match reused {
                Some((s, e)) => {
                    let start = out.pos + u64::from(any);
                    out.copy(s, e, any)?;
                    ranges[fi][p] = (count, start, out.pos);
                }
                None => {
                    if any {
                        out.bytes(b",")?;
                    }
                    let start = out.pos;
                    buf.clear();
                    let first = starts[fi][p];
                    let range = first..first + count as usize;
                    let encoded = match p {
                        0 => encode_all(&mut buf, &g.nodes[range]),
                        1 | 2 => encode_all(&mut buf, &g.edges[range]),
                        3 => encode_all(&mut buf, &g.unresolved[range]),
                        _ => encode_all(&mut buf, &g.builtin_calls[range]),
                    };
                    encoded.map_err(io::Error::other)?;
                    out.bytes(&buf)?;
                    ranges[fi][p] = (count, start, out.pos);
                }
            }
            any = true;
        }
    }
    out.bytes(b"]}")?;
    out.w.flush()?;
    Ok(ranges)
}

/// The elements' JSON joined by commas, as serde_json writes a list's elements.
fn encode_all<T: Serialize>(buf: &mut Vec<u8>, items: &[T]) -> serde_json::Result<()> {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        serde_json::to_writer(&mut *buf, item)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Edge, EdgeKind, Node, NodeKind, Unresolved};

    fn node(file: &str, name: &str) -> Node {
        Node {
            id: format!("{file}:{name}"),
            kind: NodeKind::Func,
            name: name.into(),
            qualname: name.into(),
            file: file.into(),
            lang: crate::Lang::Python,
            start_line: 1,
            end_line: 2,
        }
    }

    fn edge(from: &str, to: &str, kind: EdgeKind) -> Edge {
        Edge {
            from: from.into(),
            to: to.into(),
            kind,
        }
    }

    fn call(from: &str, name: &str) -> Unresolved {
        Unresolved {
            from: from.into(),
            name: name.into(),
            line: 3,
            external: None,
        }
    }

    /// Three files: `a.py` with two functions and a call, `b.py` with nothing but an
    /// unresolved call, `c.py` with one function (named `tag`) and a builtin call.
    fn graph(tag: &str) -> (Graph, Vec<[u32; PIECES]>) {
        let g = Graph {
            nodes: vec![node("a.py", "f"), node("a.py", "g"), node("c.py", tag)],
            edges: vec![
                edge("a.py", "a.py:f", EdgeKind::Contains),
                edge("a.py", "a.py:g", EdgeKind::Contains),
                edge("c.py", &format!("c.py:{tag}"), EdgeKind::Contains),
                edge("a.py:f", "a.py:g", EdgeKind::Call),
            ],
            unresolved: vec![call("b.py", "x.y")],
            builtin_calls: vec![call(&format!("c.py:{tag}"), "len")],
        };
        (g, vec![[2, 2, 1, 0, 0], [0, 0, 0, 1, 0], [1, 1, 0, 0, 1]])
    }

    fn layout(counts: Vec<[u32; PIECES]>, same: [Option<usize>; 3], digest: u8) -> Layout {
        Layout {
            old_digest: Some([digest - 1; 32]),
            digest: [digest; 32],
            counts,
            same_nodes: same.to_vec(),
            same_edges: same.to_vec(),
        }
    }

    fn write(
        dir: &Path,
        name: &str,
        g: &Graph,
        l: &Layout,
        old: Option<(&Index, &File)>,
    ) -> (Vec<u8>, Index) {
        let path = dir.join(name);
        let pieces = write_to(&path, g, l, old).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let stamp = Stamp::of(&std::fs::metadata(&path).unwrap()).unwrap();
        let index = Index {
            format: index_format(),
            digest: l.digest,
            stamp,
            pieces,
        };
        (bytes, index)
    }

    /// `g` written with no last file to copy from.
    fn write_fresh(
        dir: &Path,
        name: &str,
        g: &Graph,
        counts: Vec<[u32; PIECES]>,
    ) -> (Vec<u8>, Index) {
        write(dir, name, g, &layout(counts, [None; 3], 1), None)
    }

    #[test]
    fn pieces_written_one_by_one_are_the_whole_graph_encoded() {
        let dir = tempfile::tempdir().unwrap();
        let (g, counts) = graph("h");
        let (bytes, _) = write_fresh(dir.path(), "a.json", &g, counts);
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            serde_json::to_string(&g).unwrap()
        );
        let empty = Graph::default();
        let (bytes, _) = write_fresh(dir.path(), "e.json", &empty, vec![[0; 5]; 3]);
        assert_eq!(bytes, serde_json::to_vec(&empty).unwrap());
    }

    #[test]
    fn kept_pieces_are_copied_from_the_last_file_and_changed_ones_encoded() {
        let dir = tempfile::tempdir().unwrap();
        let (old_g, counts) = graph("h");
        let (_, index) = write_fresh(dir.path(), "old.json", &old_g, counts);
        let old_file = File::open(dir.path().join("old.json")).unwrap();

        // `c.py` changed: its function is now `k`; `a.py` and `b.py` are kept.
        let (new_g, counts) = graph("k");
        let l = layout(counts.clone(), [Some(0), Some(1), None], 2);
        let (bytes, new_index) = write(
            dir.path(),
            "new.json",
            &new_g,
            &l,
            Some((&index, &old_file)),
        );
        assert_eq!(bytes, serde_json::to_vec(&new_g).unwrap());
        // The ranges of the new index find each piece in the new file.
        let (_, s, e) = new_index.pieces[2][0];
        assert_eq!(
            &bytes[s as usize..e as usize],
            serde_json::to_vec(&new_g.nodes[2]).unwrap()
        );

        // Pieces said to be kept are copied, not encoded: a layout that (wrongly) keeps
        // `c.py` gives the old function back.
        let l = layout(counts, [Some(0), Some(1), Some(2)], 2);
        let (bytes, _) = write(
            dir.path(),
            "copied.json",
            &new_g,
            &l,
            Some((&index, &old_file)),
        );
        assert_eq!(bytes, serde_json::to_vec(&old_g).unwrap());
    }

    #[test]
    fn an_index_that_does_not_describe_graph_json_is_not_used() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let (old_g, counts) = graph("h");
        save(root, &old_g, Some(&layout(counts.clone(), [None; 3], 1))).unwrap();
        assert!(load_index(root).is_some());
        // Someone rewrites graph.json (same length): the stamp no longer matches.
        let path = crate::graph_path(root);
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("a.py:f", "a.py:F");
        std::thread::sleep(std::time::Duration::from_millis(5));
        std::fs::write(&path, text).unwrap();
        let (new_g, _) = graph("k");
        save(
            root,
            &new_g,
            Some(&layout(counts.clone(), [Some(0), Some(1), None], 2)),
        )
        .unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            serde_json::to_vec(&new_g).unwrap()
        );
        // A damaged index is no index.
        save(root, &old_g, Some(&layout(counts.clone(), [None; 3], 1))).unwrap();
        std::fs::write(root.join(CACHE_DIR).join(INDEX_FILE), b"\x05garbage").unwrap();
        save(
            root,
            &new_g,
            Some(&layout(counts.clone(), [Some(0), Some(1), None], 2)),
        )
        .unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            serde_json::to_vec(&new_g).unwrap()
        );
        // A graph saved without a layout drops the index.
        save(root, &old_g, None).unwrap();
        assert!(load_index(root).is_none());
        // Counts that do not add up to the graph: written whole.
        let wrong = vec![[1, 0, 0, 0, 0]; 3];
        save(
            root,
            &new_g,
            Some(&layout(wrong, [Some(0), Some(1), Some(2)], 2)),
        )
        .unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            serde_json::to_vec(&new_g).unwrap()
        );
    }
}
