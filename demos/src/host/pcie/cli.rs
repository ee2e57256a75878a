//! The `pcie` example's command line: a link and a transfer size in, four
//! bandwidths out (Gb/s, two decimals). Kept in the library so its output is
//! pinned by unit tests.

use super::link::{Generation, Link, TRANSFER};
use super::transfer::{read_gbps, tlp_gbps, write_gbps};
use crate::cli::{self, Grammar};
use crate::net::wire::parse::number;
use crate::text::decimal;

const GRAMMAR: Grammar = Grammar {
    valued: &[
        "--gen", "--lanes", "--mps", "--mrrs", "--rcb", "--addr", "--size",
    ],
    repeated: &[],
    switches: &["--ecrc", "--rcb-chunks"],
};

/// `3` or `gen3`.
fn generation(text: &str) -> Result<Generation, String> {
    let digits = text
        .strip_prefix("gen")
        .or_else(|| text.strip_prefix("Gen"))
        .unwrap_or(text);
    number(digits, "generation", 5)
        .ok()
        .and_then(|n| Generation::from_number(n as u32))
        .ok_or_else(|| {
            format!(
                "--gen is 1, 2, 3, 4 or 5 (the model's tables are PCIe 5.0's), not '{}'.",
                text.escape_default()
            )
        })
}

/// `16` or `x16`.
fn lanes(text: &str) -> Result<u32, String> {
    let digits = text.strip_prefix(['x', '×']).unwrap_or(text);
    number(digits, "width", 32)
        .map(|n| n as u32)
        .map_err(|e| format!("--lanes: {e}"))
}

fn size_of(name: &str, text: &str) -> Result<u32, String> {
    number(text, "size", 4096)
        .map(|n| n as u32)
        .map_err(|e| format!("{name}: {e}"))
}

/// The link the arguments describe, and the transfer size.
pub fn arguments(args: &[String]) -> Result<(Link, u64), String> {
    let opts = cli::parse(args, &GRAMMAR)?;
    let addr64 = match opts.get("--addr").unwrap_or("64") {
        "64" => true,
        "32" => false,
        other => {
            return Err(format!(
                "--addr is 32 or 64, not '{}'.",
                other.escape_default()
            ))
        }
    };
    let link = Link {
        generation: generation(opts.need("--gen")?)?,
        lanes: lanes(opts.need("--lanes")?)?,
        mps: size_of("--mps", opts.need("--mps")?)?,
        mrrs: size_of("--mrrs", opts.need("--mrrs")?)?,
        rcb: size_of("--rcb", opts.need("--rcb")?)?,
        addr64,
        ecrc: opts.has("--ecrc"),
        rcb_chunks: opts.has("--rcb-chunks"),
    };
    link.check()?;
    let size = number(opts.need("--size")?, "transfer size", TRANSFER.max)
        .map_err(|e| format!("--size: {e}"))?;
    if !TRANSFER.contains(size) {
        return Err(format!("--size: {}", TRANSFER.out_of_range(size)));
    }
    Ok((link, size))
}

/// What `pcie` prints: `raw`, `tlp`, `write` and `read`, in Gb/s.
pub fn pcie_command(args: &[String]) -> Result<String, String> {
    let (link, size) = arguments(args)?;
    let gbps = |v: f64| decimal(v, 2);
    Ok(format!(
        "raw {}\ntlp {}\nwrite {}\nread {}\n",
        gbps(link.raw_gbps()),
        gbps(tlp_gbps(&link)),
        gbps(write_gbps(&link, size)),
        gbps(read_gbps(&link, size)),
    ))
}
