//! The command-line examples' options, read one way for all of them:
//! `--name value` or `--name=value`, switches without a value, and options
//! that may be given more than once only where an example says so. Each
//! example's own rules (what a value means, which are required) live beside
//! its model; this is only the grammar, and the `main` they share.

use std::io::Write;
use std::process::ExitCode;

/// Which options an example takes.
pub struct Grammar<'g> {
    /// Options followed by a value, each at most once.
    pub valued: &'g [&'g str],
    /// Options followed by a value, any number of times, in order.
    pub repeated: &'g [&'g str],
    /// Options that take no value.
    pub switches: &'g [&'g str],
}

/// The options as given, in order.
#[derive(Debug, Default)]
pub struct Options<'a> {
    given: Vec<(&'a str, &'a str)>,
}

impl<'a> Options<'a> {
    /// The value of an option given once, if it was given.
    pub fn get(&self, name: &str) -> Option<&'a str> {
        self.given.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }

    /// The value of a required option.
    pub fn need(&self, name: &str) -> Result<&'a str, String> {
        self.get(name).ok_or_else(|| format!("{name} is required."))
    }

    /// Whether a switch (or any option) was given.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Every value of a repeated option, in the order given.
    pub fn all(&self, name: &str) -> Vec<&'a str> {
        self.given
            .iter()
            .filter(|(n, _)| *n == name)
            .map(|&(_, v)| v)
            .collect()
    }
}

/// An example's whole `main`: the arguments to `command`, its text to
/// standard output and status 0, or its reason to standard error (after the
/// example's `name`), nothing on standard output, and status 2.
pub fn run(name: &str, command: fn(&[String]) -> Result<String, String>) -> ExitCode {
    let args: Result<Vec<String>, _> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect();
    let out = args
        .map_err(|_| "an argument is not valid UTF-8.".to_string())
        .and_then(|args| command(&args));
    match out {
        Ok(out) => {
            // A closed pipe is not worth a panic.
            let _ = std::io::stdout().lock().write_all(out.as_bytes());
            ExitCode::SUCCESS
        }
        Err(reason) => {
            let _ = writeln!(std::io::stderr(), "{name}: {reason}");
            ExitCode::from(2)
        }
    }
}

/// Reads `args` by `grammar`, or says which argument is wrong.
pub fn parse<'a>(args: &'a [String], grammar: &Grammar) -> Result<Options<'a>, String> {
    let mut args = args.iter();
    let mut out = Options::default();
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (arg.as_str(), None),
        };
        let value = if grammar.switches.contains(&name) {
            if inline.is_some() {
                return Err(format!("{name} takes no value."));
            }
            ""
        } else if grammar.valued.contains(&name) || grammar.repeated.contains(&name) {
            match inline {
                Some(v) => v,
                None => args.next().ok_or(format!("{name} needs a value."))?,
            }
        } else {
            return Err(format!("unknown option '{}'.", name.escape_default()));
        };
        if !grammar.repeated.contains(&name) && out.has(name) {
            return Err(format!("{name} is given twice."));
        }
        out.given.push((name, value));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRAMMAR: Grammar = Grammar {
        valued: &["--size"],
        repeated: &["--backend"],
        switches: &["--ecrc"],
    };

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn values_after_a_space_or_an_equals_sign_switches_and_repeats() {
        let given = args("--size=64 --ecrc --backend a:1:2 --backend b:3:4");
        let opts = parse(&given, &GRAMMAR).unwrap();
        assert_eq!(opts.get("--size"), Some("64"));
        assert!(opts.has("--ecrc"));
        assert_eq!(opts.all("--backend"), ["a:1:2", "b:3:4"]);
        assert_eq!(opts.need("--nothing"), Err("--nothing is required.".into()));
    }

    #[test]
    fn each_wrong_argument_is_named() {
        let fails = |line: &str| parse(&args(line), &GRAMMAR).unwrap_err();
        assert_eq!(fails("--size 1 --size 2"), "--size is given twice.");
        assert_eq!(fails("--size"), "--size needs a value.");
        assert_eq!(fails("--ecrc=1"), "--ecrc takes no value.");
        assert_eq!(fails("--sise 1"), "unknown option '--sise'.");
    }
}
