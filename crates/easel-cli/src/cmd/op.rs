//! `easel op list|show|run`: every operation of the registry, reached generically.

use crate::cli::OpCmd;
use crate::input;
use crate::output::Output;
use easel_ops::{Actor, Ctx, OpInfo, Registry};
use easel_vault::Vault;
use serde::Serialize;

#[derive(Serialize)]
struct OpList<'a> {
    operations: Vec<&'a OpInfo>,
    total: usize,
}

pub fn run(vault: Vault, registry: &Registry, out: &Output, cmd: OpCmd) -> anyhow::Result<()> {
    match cmd {
        OpCmd::List => {
            let operations: Vec<&OpInfo> = registry.infos().collect();
            let list = OpList {
                total: operations.len(),
                operations,
            };
            out.emit(&list, |l| {
                let width = l.operations.iter().map(|o| o.name.len()).max().unwrap_or(0);
                for o in &l.operations {
                    outln!("{:<width$}  {:<11}  {}", o.name, o.effect.as_str(), o.title);
                }
                outln!("{} operations; 'easel op show NAME' shows one", l.total);
            })
        }
        OpCmd::Show { name } => {
            let op = registry.get(&name).ok_or_else(|| registry.unknown(&name))?;
            let info = op.info();
            out.emit(info, |i| {
                outln!("{}: {} ({})", i.name, i.title, i.effect.as_str());
                outln!();
                outln!("{}", i.description);
                outln!();
                outln!(
                    "input schema:\n{}",
                    serde_json::to_string_pretty(&i.input_schema).unwrap_or_default()
                );
            })
        }
        OpCmd::Run { name, args } => {
            let args = match args.as_deref() {
                None => serde_json::Value::Null,
                Some(a) => {
                    let value = input::read_inline(a)?;
                    serde_json::Value::from(&value)
                }
            };
            if !registry.contains(&name) {
                return Err(registry.unknown(&name).into());
            }
            let ctx = Ctx::new(vault, Actor::cli());
            let output = registry.call(&ctx, &name, args)?;
            outln!("{}", output.json);
            Ok(())
        }
    }
}
