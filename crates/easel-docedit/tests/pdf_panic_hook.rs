//! The PDF reader's panics print nothing, and every other panic still reaches the hook that was
//! in place. A file of its own: the panic hook is the whole process's.
#![cfg(feature = "pdf")]
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

mod common;

#[test]
fn reader_panics_are_silent_and_others_still_reach_the_previous_hook() {
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&seen);
    std::panic::set_hook(Box::new(move |_| {
        counter.fetch_add(1, Ordering::SeqCst);
    }));
    // A page without a MediaBox: pdf-extract panics on it (see pdf_import.rs).
    let pdf = common::hand_made_pdf(&[("Broken", false)]);
    assert!(easel_docedit::pdf_to_html(&pdf, "x").is_err());
    assert_eq!(
        seen.load(Ordering::SeqCst),
        0,
        "the reader's panic reached the hook"
    );
    let other = std::thread::spawn(|| panic!("an unrelated panic")).join();
    assert!(other.is_err());
    assert_eq!(
        seen.load(Ordering::SeqCst),
        1,
        "an unrelated panic did not reach the hook"
    );
}
