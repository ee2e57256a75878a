//! The canonical text of a test: what [`super::parse::parse`] reads back to
//! the identical [`Test`] (one space between words, `; ` between operations,
//! `rlx` left implicit, only the parentheses the condition's shape needs).

use super::ast::*;

impl Test {
    /// The canonical text, one `name`, `thread` per thread and `exists` line.
    pub fn to_text(&self) -> String {
        let mut out = format!("name {}\n", self.name);
        for ops in &self.threads {
            let ops: Vec<String> = ops.iter().map(|op| self.op_text(op)).collect();
            out.push_str("thread ");
            out.push_str(&ops.join("; "));
            out.push('\n');
        }
        out.push_str("exists ");
        out.push_str(&self.cond_text(&self.cond));
        out.push('\n');
        out
    }

    /// One operation as typed, e.g. `W.rel y 1` or `R x r2 addr(r1)`.
    pub fn op_text(&self, op: &Op) -> String {
        let head = |kind: &str, suffix: &str| {
            if suffix.is_empty() {
                kind.to_string()
            } else {
                format!("{kind}.{suffix}")
            }
        };
        let ord_suffix = |o: Order| if o == Order::Rlx { "" } else { o.suffix() };
        let mut text = match *op {
            Op::Write {
                ord, loc, value, ..
            } => format!(
                "{} {} {}",
                head("W", ord_suffix(ord)),
                self.locs[loc as usize],
                self.value_text(value)
            ),
            Op::Read { ord, loc, reg, .. } => format!(
                "{} {} {}",
                head("R", ord_suffix(ord)),
                self.locs[loc as usize],
                self.regs[reg as usize]
            ),
            Op::Fence { fence, .. } => head("F", fence.suffix()),
        };
        if let Some(dep) = op.dep() {
            text.push_str(&format!(
                " {}({})",
                dep.kind.word(),
                self.regs[dep.reg as usize]
            ));
        }
        text
    }

    pub fn value_text(&self, value: Value) -> String {
        match value {
            Value::Const(v) => v.to_string(),
            Value::Reg(r) => self.regs[r as usize].clone(),
        }
    }

    /// The condition with `/\` and `\/`; parentheses only where the tree needs them.
    pub fn cond_text(&self, cond: &Cond) -> String {
        match cond {
            Cond::Reg(r, v) => format!("{}={v}", self.regs[*r as usize]),
            Cond::Mem(l, v) => format!("{}={v}", self.locs[*l as usize]),
            Cond::Or(a, b) => {
                let right = self.cond_text(b);
                let right = if matches!(**b, Cond::Or(..)) {
                    format!("({right})")
                } else {
                    right
                };
                format!("{} \\/ {right}", self.cond_text(a))
            }
            Cond::And(a, b) => {
                let wrap = |c: &Cond, also_and: bool| {
                    let text = self.cond_text(c);
                    if matches!(c, Cond::Or(..)) || (also_and && matches!(c, Cond::And(..))) {
                        format!("({text})")
                    } else {
                        text
                    }
                };
                format!("{} /\\ {}", wrap(a, false), wrap(b, true))
            }
        }
    }
}
