//! An exact, exhaustive litmus-test checker: parse a test, enumerate every
//! candidate execution, and judge each under SC, x86-TSO, ARMv8 and RC11.
//!
//! - [`ast`], [`parse`], [`print`]: the test and its text format;
//! - [`events`], [`rel`], [`enumerate`]: events, relations, candidates;
//! - [`models`]: the four models, each citing the .cat file it follows;
//! - [`analysis`]: outcomes, verdicts and the shortest forbidding cycles;
//! - [`explain`]: those verdicts in sentences; [`syntax`]: each operation as
//!   C11, x86 or AArch64 code; [`catalogue`]: the named tests the demo ships;
//! - [`report`]: what the `litmus` command prints (`demos/examples/litmus.rs`).

pub mod analysis;
pub mod ast;
pub mod catalogue;
pub mod enumerate;
pub mod events;
pub mod explain;
pub mod models;
pub mod parse;
pub mod print;
pub mod rel;
pub mod report;
pub mod syntax;

pub use analysis::{Analysis, Row, Status, Verdict, Witness};
pub use ast::Test;
pub use models::MemModel;
pub use parse::{parse, ParseError};
pub use report::report;
