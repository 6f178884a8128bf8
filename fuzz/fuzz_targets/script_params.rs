//! The parameters of script and command tools: any declaration (the seed's DSL, a JSON Schema or
//! anything else) is read without panicking, and any arguments are checked against what it
//! gave without panicking; a schema that reads is read to itself again (reading is idempotent).
//! The same text as a command tool file (TOML) is parsed without panicking.
//!
//! Input: `DECLARATION \0 ARGUMENTS`, both JSON.
#![no_main]

use easel_agent::CommandTool;
use easel_agent::script::params::{check_args, read_parameters};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let (spec, args) = input.split_once('\0').unwrap_or((input, "{}"));
    let _ = CommandTool::parse("fuzz", spec);
    let Ok(spec) = serde_json::from_str::<Value>(spec) else {
        return;
    };
    let Ok(schema) = read_parameters(&spec) else {
        return;
    };
    assert_eq!(
        read_parameters(&schema).as_ref(),
        Ok(&schema),
        "a schema read from a declaration must read as itself"
    );
    if let Ok(args) = serde_json::from_str::<Value>(args) {
        let _ = check_args(&schema, &args);
    }
});
