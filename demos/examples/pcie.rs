//! `pcie`: what a PCIe link leaves of its bandwidth for DMA.
//!
//! ```text
//! cargo run -q --release -p demos --example pcie -- --gen 3 --lanes 8 \
//!     --mps 256 --mrrs 512 --rcb 64 --size 64
//! ```
//! prints four lines, Gb/s with two decimals, in each direction:
//!
//! ```text
//! raw 63.02
//! tlp 57.88
//! write 42.10
//! read 44.10
//! ```
//!
//! - `raw`: the link after its line code (8b/10b for Gen1–2, 128b/130b
//!   from Gen3);
//! - `tlp`: what is left for TLPs once ACK and UpdateFC DLLPs (at the
//!   specification's recommended rates for this width and MPS) and SKP
//!   ordered sets have had theirs;
//! - `write`: data rate of a continuous DMA write of `--size` bytes at the
//!   `tlp` rate, cut into MPS-sized memory writes;
//! - `read`: data rate of a continuous DMA read of `--size` bytes, requests
//!   (cut at MRRS) going out and completions (cut at MPS, or at the RCB
//!   with `--rcb-chunks`) coming in, each direction at the `tlp` rate.
//!
//! The figures are those of the open model of Neugebauer et al. (SIGCOMM
//! 2018, `pcie-bench/pcie-model`). Options (value after a space or `=`):
//! `--gen` 1–5 (or `gen3`), `--lanes` 1, 2, 4, 8, 16 or 32 (or `x8`),
//! `--mps` and `--mrrs` 128–4096 in powers of two, `--rcb` 64, 128, 256 or
//! 512, `--size` 1 byte to 1 GiB, all required; `--addr 32|64` (default
//! 64), `--ecrc`, `--rcb-chunks`. Bad input exits with status 2 and the
//! reason on standard error; nothing is printed. The work is done by
//! `demos::host::pcie::cli`, whose tests pin the output.

use demos::host::pcie::cli::pcie_command;
use std::process::ExitCode;

fn main() -> ExitCode {
    demos::cli::run("pcie", pcie_command)
}
