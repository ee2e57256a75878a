//! Each operation as the code a model's world would write: the test's own
//! text for SC, C11 calls (`store(y, 1, release)`, short for
//! `atomic_store_explicit(&y, 1, memory_order_release)`), x86 (`MOV`,
//! `XCHG`, `MFENCE`) or AArch64 (`STR`, `STLR`, `LDAR`, `DMB ISH…`).
//!
//! The instruction choices are the standard C/C++11 mappings (Sewell et al.,
//! <https://www.cl.cam.ac.uk/~pes20/cpp/cpp0xmappings.html>; Arm's
//! `atomicsabi64`): a seq_cst store is `XCHG` on x86 and `STLR` on Arm, a
//! seq_cst load `MOV` / `LDAR`, acquire and release fences are no instruction
//! on x86 (TSO already gives their order; they still bind the compiler) and `DMB ISHLD` / `DMB ISH` on Arm. A dependency is shown as herd
//! writes it: an address or data that goes through `r^r` (always 0), or a
//! branch on the register just before the operation.

use super::ast::{Dep, DepKind, Fence, Op, Order, Test, Value};
use super::models::MemModel;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Syntax {
    /// The test's own text format.
    Text,
    C11,
    X86,
    Arm,
}

impl Syntax {
    /// The syntax a model's view uses.
    pub fn of(model: MemModel) -> Syntax {
        match model {
            MemModel::Sc => Syntax::Text,
            MemModel::Tso => Syntax::X86,
            MemModel::Armv8 => Syntax::Arm,
            MemModel::Rc11 => Syntax::C11,
        }
    }
}

/// One thread's code, an operation per line.
pub fn thread_code(test: &Test, thread: usize, syntax: Syntax) -> Vec<String> {
    test.threads
        .get(thread)
        .map(|ops| {
            ops.iter()
                .enumerate()
                .map(|(i, op)| render(test, op, i, syntax))
                .collect()
        })
        .unwrap_or_default()
}

/// One operation (the `index`-th of its thread, for branch labels).
pub fn render(test: &Test, op: &Op, index: usize, syntax: Syntax) -> String {
    match syntax {
        Syntax::Text => test.op_text(op),
        Syntax::C11 => c11(test, op),
        Syntax::X86 => x86(test, op),
        Syntax::Arm => arm(test, op, index),
    }
}

fn c_order(ord: Order) -> &'static str {
    match ord {
        Order::Na | Order::Rlx => "relaxed",
        Order::Acq => "acquire",
        Order::Rel => "release",
        Order::AcqRel => "acq_rel",
        Order::Sc => "seq_cst",
    }
}

fn dep_note(test: &Test, dep: Option<Dep>, comment: &str) -> String {
    match dep {
        Some(d) => format!(
            "  {comment} {}({})",
            d.kind.word(),
            test.regs[d.reg as usize]
        ),
        None => String::new(),
    }
}

fn c11(test: &Test, op: &Op) -> String {
    let loc = |l: u8| &test.locs[l as usize];
    let code = match *op {
        Op::Read {
            ord: Order::Na,
            loc: l,
            reg,
            ..
        } => format!("{} = {}", test.regs[reg as usize], loc(l)),
        Op::Read {
            ord, loc: l, reg, ..
        } => {
            format!(
                "{} = load({}, {})",
                test.regs[reg as usize],
                loc(l),
                c_order(ord)
            )
        }
        Op::Write {
            ord: Order::Na,
            loc: l,
            value,
            ..
        } => format!("{} = {}", loc(l), test.value_text(value)),
        Op::Write {
            ord, loc: l, value, ..
        } => format!(
            "store({}, {}, {})",
            loc(l),
            test.value_text(value),
            c_order(ord)
        ),
        Op::Fence { fence, .. } => {
            let ord = match fence {
                Fence::Full | Fence::Sc => "seq_cst",
                Fence::Acq | Fence::Ld => "acquire",
                Fence::Rel | Fence::St => "release",
                Fence::AcqRel => "acq_rel",
            };
            format!("fence({ord})")
        }
    };
    code + &dep_note(test, op.dep(), "//")
}

fn x86(test: &Test, op: &Op) -> String {
    let loc = |l: u8| &test.locs[l as usize];
    let code = match *op {
        Op::Read { loc: l, reg, .. } => format!("MOV {}, [{}]", test.regs[reg as usize], loc(l)),
        Op::Write {
            ord, loc: l, value, ..
        } => {
            let mnemonic = if ord == Order::Sc { "XCHG" } else { "MOV" };
            format!("{mnemonic} [{}], {}", loc(l), test.value_text(value))
        }
        Op::Fence { fence, .. } => match fence {
            Fence::Full | Fence::Sc => "MFENCE".into(),
            Fence::Ld => "LFENCE".into(),
            Fence::St => "SFENCE".into(),
            // No instruction, since TSO already keeps this order; the fence
            // still forbids the compiler to move accesses across it.
            Fence::Acq | Fence::Rel | Fence::AcqRel => {
                "; no instruction: TSO keeps this order; the compiler must too".into()
            }
        },
    };
    code + &dep_note(test, op.dep(), ";")
}

fn arm(test: &Test, op: &Op, index: usize) -> String {
    let loc = |l: u8, dep: Option<Dep>| match dep {
        Some(Dep {
            kind: DepKind::Addr,
            reg,
        }) => {
            let r = &test.regs[reg as usize];
            format!("[{}, {r}^{r}]", test.locs[l as usize])
        }
        _ => format!("[{}]", test.locs[l as usize]),
    };
    let dep = op.dep();
    let code = match *op {
        Op::Read {
            ord, loc: l, reg, ..
        } => {
            let mnemonic = if matches!(ord, Order::Acq | Order::Sc) {
                "LDAR"
            } else {
                "LDR"
            };
            format!("{mnemonic} {}, {}", test.regs[reg as usize], loc(l, dep))
        }
        Op::Write {
            ord, loc: l, value, ..
        } => {
            let mnemonic = if matches!(ord, Order::Rel | Order::Sc) {
                "STLR"
            } else {
                "STR"
            };
            let source = match (value, dep) {
                (
                    Value::Const(v),
                    Some(Dep {
                        kind: DepKind::Data,
                        reg,
                    }),
                ) => {
                    let r = &test.regs[reg as usize];
                    format!("#{v}+{r}^{r}")
                }
                (Value::Const(v), _) => format!("#{v}"),
                (Value::Reg(r), _) => test.regs[r as usize].clone(),
            };
            format!("{mnemonic} {source}, {}", loc(l, dep))
        }
        Op::Fence { fence, .. } => match fence {
            Fence::Full | Fence::Sc | Fence::Rel | Fence::AcqRel => "DMB ISH".into(),
            Fence::Ld | Fence::Acq => "DMB ISHLD".into(),
            Fence::St => "DMB ISHST".into(),
        },
    };
    match dep {
        Some(Dep {
            kind: DepKind::Ctrl,
            reg,
        }) => format!(
            "CBNZ {}, L{index}; L{index}: {code}",
            test.regs[reg as usize]
        ),
        _ => code,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::litmus::parse;

    #[test]
    fn each_model_names_its_instructions() {
        let t = parse(
            "thread W x 1; W.rel y 1; F.sc\nthread R.acq y r1; R x r2 addr(r1); W.sc x r1; F.acq\nexists r1=1",
        )
        .unwrap();
        assert_eq!(
            thread_code(&t, 0, Syntax::C11),
            [
                "store(x, 1, relaxed)",
                "store(y, 1, release)",
                "fence(seq_cst)"
            ]
        );
        assert_eq!(
            thread_code(&t, 0, Syntax::X86),
            ["MOV [x], 1", "MOV [y], 1", "MFENCE"]
        );
        assert_eq!(
            thread_code(&t, 1, Syntax::X86),
            [
                "MOV r1, [y]",
                "MOV r2, [x]  ; addr(r1)",
                "XCHG [x], r1",
                "; no instruction: TSO keeps this order; the compiler must too"
            ]
        );
        assert_eq!(
            thread_code(&t, 1, Syntax::Arm),
            [
                "LDAR r1, [y]",
                "LDR r2, [x, r1^r1]",
                "STLR r1, [x]",
                "DMB ISHLD"
            ]
        );
        assert_eq!(
            thread_code(&t, 0, Syntax::Arm),
            ["STR #1, [x]", "STLR #1, [y]", "DMB ISH"]
        );
        let ctrl = parse("thread R y r1; W z 1 ctrl(r1); W.na x 2 data(r1)\nexists r1=1").unwrap();
        assert_eq!(
            thread_code(&ctrl, 0, Syntax::Arm)[1],
            "CBNZ r1, L1; L1: STR #1, [z]"
        );
        assert_eq!(thread_code(&ctrl, 0, Syntax::Arm)[2], "STR #2+r1^r1, [x]");
        assert_eq!(thread_code(&ctrl, 0, Syntax::C11)[2], "x = 2  // data(r1)");
    }
}
