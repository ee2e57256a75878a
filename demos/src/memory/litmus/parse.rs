//! The litmus text format, exactly as issue 8 specifies it:
//!
//! ```text
//! # comment
//! name MP+rel+acq
//! thread W x 1; W.rel y 1
//! thread R.acq y r1; R x r2
//! exists r1=1 /\ r2=0
//! ```
//!
//! - `W[.ord] LOC VALUE`, `R[.ord] LOC REG`, `F[.ord]`, each optionally
//!   followed by one `addr(rN)`, `data(rN)` or `ctrl(rN)` naming a register
//!   loaded by an earlier read of the same thread. `ctrl(rN)` stands for a
//!   conditional branch on `rN` just before the operation, so (as in herd)
//!   the operation and every later one in the thread depend on the load.
//! - Orders: `na rlx acq rel acqrel sc`; loads take `na rlx acq sc`, stores
//!   `na rlx rel sc` (C11 forbids the others). `F` is the full fence, `F.ld`
//!   / `F.st` the Arm load / store barriers, `F.acq F.rel F.acqrel F.sc` C11 fences.
//! - A store of a register (`W y r1`) is a data dependency on it.
//! - Registers are `r` and digits (at most [`MAX_IDENT`] characters in all),
//!   each loaded by exactly one read;
//!   locations are lower-case identifiers (at most 3, all start at 0);
//!   values are 0–9; a name is letters, digits and `+ . _ -`.
//! - The condition uses `REG=VALUE`, `LOC=VALUE`, `/\`, `\/` and parentheses.
//! - `#` starts a comment anywhere; blank lines are ignored; `name` is
//!   optional and comes first, then the `thread` lines, then one `exists`.
//!
//! Errors carry the 1-based line and column (in characters) and a reason.

use super::ast::*;
use std::fmt;

/// Longest text accepted, in characters.
pub const MAX_TEXT: usize = 4_000;
/// Longest register or location name.
pub const MAX_IDENT: usize = 12;
/// Deepest parenthesis nesting and most atoms in a condition.
const MAX_DEPTH: usize = 16;
const MAX_ATOMS: usize = 32;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.reason)
    }
}

type Res<T> = Result<T, ParseError>;

/// A word of a line and the (0-based) column where it starts.
#[derive(Clone, Copy)]
struct Tok<'a> {
    text: &'a str,
    col: usize,
}

/// Splits `chars[from..to]` on whitespace.
fn words<'a>(line: &'a str, offsets: &[usize], from: usize, to: usize) -> Vec<Tok<'a>> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for i in from..=to {
        let blank = i == to || char_at(line, offsets, i).is_whitespace();
        match (start, blank) {
            (None, false) => start = Some(i),
            (Some(s), true) => {
                out.push(Tok {
                    text: &line[offsets[s]..offsets[i]],
                    col: s,
                });
                start = None;
            }
            _ => {}
        }
    }
    out
}

fn char_at(line: &str, offsets: &[usize], i: usize) -> char {
    line[offsets[i]..].chars().next().unwrap_or(' ')
}

struct Parser {
    line: usize,
    name: Option<String>,
    locs: Vec<String>,
    regs: Vec<String>,
    /// Thread that loads each register.
    reg_thread: Vec<usize>,
    threads: Vec<Vec<Op>>,
    cond: Option<Cond>,
}

impl Parser {
    fn err<T>(&self, col: usize, reason: impl Into<String>) -> Res<T> {
        Err(ParseError {
            line: self.line,
            col: col + 1,
            reason: reason.into(),
        })
    }
}

/// Parses a test; never panics, whatever the text.
pub fn parse(text: &str) -> Result<Test, ParseError> {
    let total = text.chars().count();
    if total > MAX_TEXT {
        return Err(ParseError {
            line: 1,
            col: 1,
            reason: format!("the test is {total} characters long; at most {MAX_TEXT} are accepted"),
        });
    }
    let mut p = Parser {
        line: 0,
        name: None,
        locs: Vec::new(),
        regs: Vec::new(),
        reg_thread: Vec::new(),
        threads: Vec::new(),
        cond: None,
    };
    let mut last_line = 1;
    for (i, raw) in text.split('\n').enumerate() {
        p.line = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let offsets: Vec<usize> = line
            .char_indices()
            .map(|(o, _)| o)
            .chain(std::iter::once(line.len()))
            .collect();
        let len = offsets.len() - 1;
        let end = (0..len)
            .find(|&c| char_at(line, &offsets, c) == '#')
            .unwrap_or(len);
        let toks = words(line, &offsets, 0, end);
        let Some(first) = toks.first() else { continue };
        last_line = p.line;
        if p.cond.is_some() {
            return p.err(first.col, "nothing but comments may follow the exists line");
        }
        let rest = first.col + first.text.chars().count();
        match first.text {
            "name" => p.name_line(&toks)?,
            "thread" => {
                let ops = p.thread_line(line, &offsets, rest, end)?;
                if p.threads.len() == MAX_THREADS {
                    return p.err(
                        first.col,
                        format!("a test has at most {MAX_THREADS} threads"),
                    );
                }
                p.threads.push(ops);
            }
            "exists" => {
                if p.threads.is_empty() {
                    return p.err(first.col, "the exists line comes after the thread lines");
                }
                let chars: Vec<char> = (rest..end).map(|c| char_at(line, &offsets, c)).collect();
                let mut c = CondParser {
                    p: &p,
                    chars,
                    at: 0,
                    base: rest,
                    atoms: 0,
                };
                let cond = c.parse()?;
                p.cond = Some(cond);
            }
            other => {
                return p.err(
                    first.col,
                    format!("a line starts with name, thread or exists, not `{other}`"),
                )
            }
        }
    }
    p.line = last_line;
    let Some(cond) = p.cond.take() else {
        return p.err(
            0,
            "the test needs an exists line, e.g. `exists r1=1 /\\ r2=0`",
        );
    };
    Ok(Test {
        name: p.name.unwrap_or_else(|| "test".into()),
        locs: p.locs,
        regs: p.regs,
        threads: p.threads,
        cond,
    })
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '_' | '-')
}

/// `r` and one or more digits, as issue 8's format says: any number of
/// them, so `r1234` is a register (a register is an identifier, and its
/// length is bounded where it is declared, by [`MAX_IDENT`], as a
/// location's is).
fn is_reg(s: &str) -> bool {
    s.len() >= 2 && s.starts_with('r') && s[1..].bytes().all(|b| b.is_ascii_digit())
}

fn is_loc(s: &str) -> bool {
    let mut bytes = s.bytes();
    matches!(bytes.next(), Some(b'a'..=b'z'))
        && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        && !is_reg(s)
}

fn parse_value(s: &str) -> Option<u8> {
    if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<u8>().ok()
}

impl Parser {
    fn name_line(&mut self, toks: &[Tok]) -> Res<()> {
        if !self.threads.is_empty() || self.name.is_some() {
            return self.err(toks[0].col, "the name line comes once, before the threads");
        }
        let Some(name) = toks.get(1) else {
            return self.err(toks[0].col + 4, "the name is missing after `name`");
        };
        if let Some(extra) = toks.get(2) {
            return self.err(extra.col, "a name has no spaces");
        }
        if name.text.chars().count() > MAX_NAME {
            return self.err(
                name.col,
                format!("a name has at most {MAX_NAME} characters"),
            );
        }
        if let Some((i, c)) = name
            .text
            .chars()
            .enumerate()
            .find(|(_, c)| !is_name_char(*c))
        {
            return self.err(
                name.col + i,
                format!("`{c}` cannot appear in a name: use letters, digits and + . _ -"),
            );
        }
        self.name = Some(name.text.to_string());
        Ok(())
    }

    fn thread_line(
        &mut self,
        line: &str,
        offsets: &[usize],
        from: usize,
        to: usize,
    ) -> Res<Vec<Op>> {
        let thread = self.threads.len();
        let mut ops = Vec::new();
        let mut start = from;
        let mut segments = Vec::new();
        for i in from..=to {
            if i == to || char_at(line, offsets, i) == ';' {
                segments.push((start, i));
                start = i + 1;
            }
        }
        let count = segments.len();
        for (k, &(s, e)) in segments.iter().enumerate() {
            let toks = words(line, offsets, s, e);
            if toks.is_empty() {
                if k + 1 == count && k > 0 {
                    continue; // a trailing `;`
                }
                return self.err(s, "an operation is missing here");
            }
            if ops.len() == MAX_OPS {
                return self.err(
                    toks[0].col,
                    format!("a thread has at most {MAX_OPS} operations"),
                );
            }
            let op = self.op(thread, &toks)?;
            ops.push(op);
        }
        Ok(ops)
    }

    fn op(&mut self, thread: usize, toks: &[Tok]) -> Res<Op> {
        let head = toks[0];
        let (kind, suffix) = match head.text.split_once('.') {
            Some((k, s)) => (k, Some(s)),
            None => (head.text, None),
        };
        let suffix_col = head.col + kind.chars().count() + 1;
        let (args, dep_tok) = match toks.last() {
            Some(t) if toks.len() > 1 && t.text.contains('(') => {
                (&toks[1..toks.len() - 1], Some(*t))
            }
            _ => (&toks[1..], None),
        };
        let dep = match dep_tok {
            Some(t) => Some(self.dep(thread, t)?),
            None => None,
        };
        let want = match kind {
            "W" | "R" => 2,
            "F" => 0,
            _ => {
                return self.err(
                    head.col,
                    format!("`{}` is not an operation: use W, R or F", head.text),
                )
            }
        };
        if args.len() > want {
            return self.err(
                args[want].col,
                format!(
                    "`{kind}` takes {want} operand{}",
                    if want == 1 { "" } else { "s" }
                ),
            );
        }
        if args.len() < want {
            let col = args
                .last()
                .map_or(head.col + head.text.chars().count(), |t| {
                    t.col + t.text.chars().count()
                });
            let missing = if args.is_empty() {
                "a location"
            } else if kind == "W" {
                "a value"
            } else {
                "a register"
            };
            return self.err(col, format!("`{kind}` needs {missing} here"));
        }
        match kind {
            "F" => {
                let fence = match suffix {
                    None => Fence::Full,
                    Some("ld") => Fence::Ld,
                    Some("st") => Fence::St,
                    Some("acq") => Fence::Acq,
                    Some("rel") => Fence::Rel,
                    Some("acqrel") => Fence::AcqRel,
                    Some("sc") => Fence::Sc,
                    Some("rlx") | Some("na") => {
                        return self.err(suffix_col, "a relaxed fence orders nothing: leave it out")
                    }
                    Some(s) => {
                        return self.err(
                            suffix_col,
                            format!("`F.{s}` is not a fence: use F, F.ld, F.st, F.acq, F.rel, F.acqrel or F.sc"),
                        )
                    }
                };
                if let (Some(d), Some(t)) = (dep, dep_tok) {
                    if d.kind != DepKind::Ctrl {
                        return self.err(
                            t.col,
                            "a fence has no address or data: only ctrl(rN) applies",
                        );
                    }
                }
                Ok(Op::Fence { fence, dep })
            }
            _ => {
                let ord = match suffix {
                    None | Some("rlx") => Order::Rlx,
                    Some("na") => Order::Na,
                    Some("acq") => Order::Acq,
                    Some("rel") => Order::Rel,
                    Some("acqrel") => Order::AcqRel,
                    Some("sc") => Order::Sc,
                    Some(s) => {
                        return self.err(
                            suffix_col,
                            format!("`.{s}` is not an order: use na, rlx, acq, rel, acqrel or sc"),
                        )
                    }
                };
                let loc = self.loc(args[0])?;
                if kind == "R" {
                    if matches!(ord, Order::Rel | Order::AcqRel) {
                        return self.err(suffix_col, "a load cannot be a release: use acq or sc");
                    }
                    if let (Some(d), Some(t)) = (dep, dep_tok) {
                        if d.kind == DepKind::Data {
                            return self.err(
                                t.col,
                                "a load has no data to depend on: use addr(rN) or ctrl(rN)",
                            );
                        }
                    }
                    let reg = self.new_reg(thread, args[1])?;
                    Ok(Op::Read { ord, loc, reg, dep })
                } else {
                    if matches!(ord, Order::Acq | Order::AcqRel) {
                        return self.err(suffix_col, "a store cannot be an acquire: use rel or sc");
                    }
                    let value = self.value(thread, args[1])?;
                    Ok(Op::Write {
                        ord,
                        loc,
                        value,
                        dep,
                    })
                }
            }
        }
    }

    fn loc(&mut self, t: Tok) -> Res<u8> {
        if t.text.len() > MAX_IDENT || !is_loc(t.text) {
            return self.err(
                t.col,
                format!("`{}` is not a location: use a lower-case name such as x (at most {MAX_IDENT} characters, not r and digits)", t.text),
            );
        }
        if let Some(i) = self.locs.iter().position(|l| l == t.text) {
            return Ok(i as u8);
        }
        if self.locs.len() == MAX_LOCS {
            return self.err(t.col, format!("a test uses at most {MAX_LOCS} locations"));
        }
        self.locs.push(t.text.to_string());
        Ok((self.locs.len() - 1) as u8)
    }

    fn new_reg(&mut self, thread: usize, t: Tok) -> Res<u8> {
        if !is_reg(t.text) {
            return self.err(
                t.col,
                format!("`{}` is not a register: use r and digits, e.g. r1", t.text),
            );
        }
        if t.text.len() > MAX_IDENT {
            return self.err(
                t.col,
                format!("a register name has at most {MAX_IDENT} characters"),
            );
        }
        if self.regs.iter().any(|r| r == t.text) {
            return self.err(
                t.col,
                format!(
                    "{} is already loaded by another read: give each read its own register",
                    t.text
                ),
            );
        }
        self.regs.push(t.text.to_string());
        self.reg_thread.push(thread);
        Ok((self.regs.len() - 1) as u8)
    }

    /// A register this thread has already loaded.
    fn used_reg(&self, thread: usize, text: &str, col: usize) -> Res<u8> {
        if !is_reg(text) {
            return self.err(
                col,
                format!("`{text}` is not a register: use r and digits, e.g. r1"),
            );
        }
        match self.regs.iter().position(|r| r == text) {
            Some(i) if self.reg_thread[i] == thread => Ok(i as u8),
            Some(_) => self.err(
                col,
                format!(
                    "{text} belongs to another thread: a dependency is on this thread's own loads"
                ),
            ),
            None => self.err(
                col,
                format!("{text} is not loaded by an earlier read of this thread"),
            ),
        }
    }

    fn value(&self, thread: usize, t: Tok) -> Res<Value> {
        if let Some(v) = parse_value(t.text) {
            if v > MAX_VALUE {
                return self.err(t.col, format!("values are 0 to {MAX_VALUE}"));
            }
            return Ok(Value::Const(v));
        }
        if t.text.bytes().all(|b| b.is_ascii_digit()) {
            return self.err(t.col, format!("values are 0 to {MAX_VALUE}"));
        }
        Ok(Value::Reg(self.used_reg(thread, t.text, t.col)?))
    }

    fn dep(&self, thread: usize, t: Tok) -> Res<Dep> {
        let Some((word, rest)) = t.text.split_once('(') else {
            return self.err(t.col, "expected addr(rN), data(rN) or ctrl(rN)");
        };
        let kind = match word {
            "addr" => DepKind::Addr,
            "data" => DepKind::Data,
            "ctrl" => DepKind::Ctrl,
            _ => {
                return self.err(
                    t.col,
                    format!("`{word}` is not a dependency: use addr, data or ctrl"),
                )
            }
        };
        let Some(reg) = rest.strip_suffix(')') else {
            return self.err(
                t.col + t.text.chars().count(),
                "the dependency needs a closing `)`",
            );
        };
        let col = t.col + word.chars().count() + 1;
        Ok(Dep {
            kind,
            reg: self.used_reg(thread, reg, col)?,
        })
    }
}

/// Recursive descent over the condition's characters.
struct CondParser<'p> {
    p: &'p Parser,
    chars: Vec<char>,
    at: usize,
    /// Column of `chars[0]` in the line.
    base: usize,
    atoms: usize,
}

impl CondParser<'_> {
    fn err<T>(&self, at: usize, reason: impl Into<String>) -> Res<T> {
        self.p.err(self.base + at, reason)
    }

    fn skip(&mut self) {
        while self.at < self.chars.len() && self.chars[self.at].is_whitespace() {
            self.at += 1;
        }
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip();
        let n = s.chars().count();
        if self.at + n <= self.chars.len()
            && self.chars[self.at..self.at + n]
                .iter()
                .copied()
                .eq(s.chars())
        {
            self.at += n;
            true
        } else {
            false
        }
    }

    fn parse(&mut self) -> Res<Cond> {
        self.skip();
        if self.at == self.chars.len() {
            return self.err(self.at, "the condition is missing, e.g. r1=1 /\\ x=0");
        }
        let c = self.or(0)?;
        self.skip();
        if self.at < self.chars.len() {
            return self.err(self.at, "expected /\\ or \\/ here");
        }
        Ok(c)
    }

    fn or(&mut self, depth: usize) -> Res<Cond> {
        let mut left = self.and(depth)?;
        while self.eat("\\/") {
            let right = self.and(depth)?;
            left = Cond::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and(&mut self, depth: usize) -> Res<Cond> {
        let mut left = self.prim(depth)?;
        while self.eat("/\\") {
            let right = self.prim(depth)?;
            left = Cond::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn prim(&mut self, depth: usize) -> Res<Cond> {
        self.skip();
        let start = self.at;
        if self.eat("(") {
            if depth == MAX_DEPTH {
                return self.err(start, format!("parentheses nest at most {MAX_DEPTH} deep"));
            }
            let inner = self.or(depth + 1)?;
            if !self.eat(")") {
                self.skip();
                return self.err(self.at, "a `)` is missing here");
            }
            return Ok(inner);
        }
        self.atom()
    }

    fn atom(&mut self) -> Res<Cond> {
        self.skip();
        let start = self.at;
        while self.at < self.chars.len()
            && (self.chars[self.at].is_ascii_alphanumeric() || self.chars[self.at] == '_')
        {
            self.at += 1;
        }
        if start == self.at {
            return self.err(start, "expected a register or location, e.g. r1=1");
        }
        self.atoms += 1;
        if self.atoms > MAX_ATOMS {
            return self.err(
                start,
                format!("a condition has at most {MAX_ATOMS} comparisons"),
            );
        }
        let name: String = self.chars[start..self.at].iter().collect();
        if !self.eat("=") {
            self.skip();
            return self.err(self.at, format!("expected `=` after {name}"));
        }
        self.skip();
        let vstart = self.at;
        while self.at < self.chars.len() && self.chars[self.at].is_ascii_digit() {
            self.at += 1;
        }
        let digits: String = self.chars[vstart..self.at].iter().collect();
        let value = match parse_value(&digits) {
            Some(v) if v <= MAX_VALUE => v,
            _ if digits.is_empty() => {
                return self.err(vstart, format!("expected a value (0 to {MAX_VALUE}) here"))
            }
            _ => return self.err(vstart, format!("values are 0 to {MAX_VALUE}")),
        };
        if is_reg(&name) {
            match self.p.regs.iter().position(|r| *r == name) {
                Some(i) => Ok(Cond::Reg(i as u8, value)),
                None => self.err(start, format!("{name} is not loaded by any read")),
            }
        } else {
            match self.p.locs.iter().position(|l| *l == name) {
                Some(i) => Ok(Cond::Mem(i as u8, value)),
                None => self.err(
                    start,
                    format!("{name} is neither a register nor a location of this test"),
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> (usize, usize, String) {
        let e = parse(text).expect_err(text);
        (e.line, e.col, e.reason)
    }

    #[test]
    fn the_issue_example_parses() {
        let t = parse(
            "# comment\nname MP+rel+acq\nthread W x 1; W.rel y 1\nthread R.acq y r1; R x r2\nexists r1=1 /\\ r2=0\n",
        )
        .unwrap();
        assert_eq!(t.name, "MP+rel+acq");
        assert_eq!((t.locs.len(), t.regs.len(), t.threads.len()), (2, 2, 2));
        assert_eq!(
            t.threads[1][0],
            Op::Read {
                ord: Order::Acq,
                loc: 1,
                reg: 0,
                dep: None
            }
        );
        assert_eq!(
            t.cond,
            Cond::And(Box::new(Cond::Reg(0, 1)), Box::new(Cond::Reg(1, 0)))
        );
    }

    #[test]
    fn dependencies_values_and_conditions() {
        let t = parse(
            "thread R x r1; W y r1 data(r1); R z r2 addr(r1); F.ld ctrl(r2); W.na x 3;\nexists (r1=1 \\/ r2=0) /\\ x=3 \\/ y=1",
        )
        .unwrap();
        assert_eq!(t.name, "test");
        let ops = &t.threads[0];
        assert_eq!(ops.len(), 5, "a trailing ; is allowed");
        assert!(matches!(
            ops[1],
            Op::Write {
                value: Value::Reg(0),
                dep: Some(Dep {
                    kind: DepKind::Data,
                    reg: 0
                }),
                ..
            }
        ));
        assert!(matches!(
            ops[3],
            Op::Fence {
                fence: Fence::Ld,
                dep: Some(Dep {
                    kind: DepKind::Ctrl,
                    reg: 1
                })
            }
        ));
        assert!(matches!(t.cond, Cond::Or(..)), "/\\ binds tighter than \\/");
        assert_eq!(parse(&t.to_text()).unwrap(), t);
    }

    #[test]
    fn errors_name_line_column_and_reason() {
        assert_eq!(err("thread W x\nexists x=1").0, 1);
        assert_eq!(err("thread W x\nexists x=1").1, 11);
        let (l, c, r) = err("name t\nthread Q x 1\nexists x=1");
        assert_eq!((l, c), (2, 8));
        assert!(r.contains("use W, R or F"), "{r}");
        assert_eq!(err("thread R.rel x r1\nexists r1=0").1, 10);
        assert!(err("thread W.acq x 1\nexists x=0").2.contains("rel or sc"));
        assert!(err("thread F.rlx\nexists x=0").2.contains("orders nothing"));
        assert_eq!(err("thread W x 10\nexists x=0").1, 12);
        let (_, c, r) = err("thread W y r1\nexists y=0");
        assert_eq!(c, 12);
        assert!(r.contains("not loaded by an earlier read"), "{r}");
        assert!(err("thread R x r1\nthread W y 1 addr(r1)\nexists r1=0")
            .2
            .contains("another thread"));
        assert!(err("thread R x r1; R y r1\nexists r1=0")
            .2
            .contains("its own register"));
        assert!(err("thread R x r1 data(r1)\nexists r1=0")
            .2
            .contains("not loaded"));
        assert!(err("thread R x r1; R y r2 data(r1)\nexists r1=0")
            .2
            .contains("use addr(rN) or ctrl(rN)"));
        assert!(err("thread R x r1; F addr(r1)\nexists r1=0")
            .2
            .contains("only ctrl"));
        assert!(err("thread W x 1\n").2.contains("needs an exists line"));
        assert!(err("exists x=1").2.contains("after the thread lines"));
        assert!(err("thread W x 1\nname late\nexists x=1")
            .2
            .contains("once, before the threads"));
        assert!(err("thread W x 1\nexists x=1\nthread W y 1")
            .2
            .contains("may follow the exists"));
        assert!(err("thread W x 1\nexists z=1")
            .2
            .contains("neither a register nor a location"));
        assert!(err("thread W x 1\nexists r9=1")
            .2
            .contains("not loaded by any read"));
        assert!(err("thread W x 1\nexists (x=1")
            .2
            .contains("`)` is missing"));
        assert!(err("thread W x 1\nexists x=1 /\\")
            .2
            .contains("register or location"));
        assert!(err("thread W x 1\nexists x 1").2.contains("expected `=`"));
        assert!(err("name a b\nthread W x 1\nexists x=1")
            .2
            .contains("no spaces"));
        assert!(err("name a&b\nthread W x 1\nexists x=1")
            .2
            .contains("cannot appear in a name"));
        assert!(err("thread W r1 1\nexists r1=1")
            .2
            .contains("not a location"));
        assert!(err("thread W x 1;; W y 1\nexists x=1")
            .2
            .contains("missing here"));
    }

    #[test]
    fn limits_are_refused_with_a_reason() {
        let five = "thread W x 1\n".repeat(5) + "exists x=1";
        assert!(err(&five).2.contains("at most 4 threads"));
        let seven = format!("thread {}\nexists x=1", ["W x 1"; 7].join("; "));
        let (_, c, r) = err(&seven);
        assert!(r.contains("at most 6 operations"));
        assert_eq!(c, 8 + 7 * 6);
        assert!(err("thread W a 1; W b 1; W c 1; W d 1\nexists a=1")
            .2
            .contains("at most 3 locations"));
        assert!(err(&"#".repeat(MAX_TEXT + 1)).2.contains("at most 4000"));
        let deep = format!(
            "thread W x 1\nexists {}x=1{}",
            "(".repeat(20),
            ")".repeat(20)
        );
        assert!(err(&deep).2.contains("nest at most"));
    }

    #[test]
    fn a_register_is_r_and_any_number_of_digits() {
        // Issue 8: "Registers are `r` followed by digits". r1234 was once
        // refused as "not a register" because only 1-3 digits were accepted.
        let t = parse("thread R x r1234; W y r1234\nexists r1234=1").unwrap();
        assert_eq!(t.regs, ["r1234"]);
        assert_eq!(parse(&t.to_text()).unwrap(), t);
        let longest = format!("r{}", "9".repeat(MAX_IDENT - 1));
        assert!(parse(&format!("thread R x {longest}\nexists {longest}=0")).is_ok());
        // One digit more is refused for its length, not as "not a register".
        let (l, c, r) = err(&format!("thread R x {longest}0\nexists x=0"));
        assert_eq!((l, c), (1, 12));
        assert_eq!(r, "a register name has at most 12 characters");
        // And r and digits is never a location, however many digits.
        assert!(err("thread W r1234 1\nexists r1234=1")
            .2
            .contains("not a location"));
        assert!(err("thread R x r\nexists x=0").2.contains("not a register"));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let (l, c, _) = err("# héllo\nthread W x 1; Wé x 1\nexists x=1");
        assert_eq!((l, c), (2, 15));
        let (_, c, _) = err("thread W x 1; W ü 1\nexists x=1");
        assert_eq!(c, 17);
    }
}
