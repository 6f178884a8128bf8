//! Vault IO.
