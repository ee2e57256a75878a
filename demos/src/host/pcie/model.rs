//! The `/host/pcie` demo: one DMA transfer sent TLP by TLP over a link the
//! learner programs, the bandwidth that is left of the link, and what a
//! NIC's packets cost on it.
//!
//! Step sends the transfer's next TLP. Every setting restarts the transfer.
//! Break it: too few read tags for the read latency (Little's law: a reader
//! can have at most `tags` requests in flight, each waiting `latency`, so it
//! gets at most tags × request bytes per latency, whatever the link).

use super::link::{Generation, Link, COMPLETION_BOUNDARIES};
use super::nic::{packet_rate, per_packet, Path};
use super::transfer::{self, read_gbps, tlp_gbps, write_gbps};
use crate::bound::Bound;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{capitalised, decimal, grouped, plural};
use serde::{Deserialize, Serialize};

/// The demo's transfers: up to 64 KiB, so a transfer is at most 512 TLPs.
pub const SIZE: Bound<u64> = Bound::new("transfer size", " bytes", 1, 65_536);
/// Read requests a device may have in flight: each carries a tag its
/// completions echo, 32 of them with 5-bit tags, 256 with the 8-bit
/// Extended Tag. (10-bit tags, from PCIe 4.0, allow up to 768, as Intel's
/// PCIe IP guides' "Tag Allocation" pages put it; the demo stops at 256.)
pub const TAGS: Bound<u32> = Bound::new("read tags", "", 1, 256);
/// From a read request leaving the device to its last completion arriving.
/// It depends on the host (root complex, IOMMU, where the data is cached),
/// so it is a parameter; the default, 500 ns, is ours, not a measurement.
pub const LATENCY: Bound<u64> = Bound::new("read latency", " ns", 100, 2_000);
/// The packet sizes the NIC table compares: the smallest Ethernet frame
/// without its FCS, and a full 1,500-byte MTU's.
pub const PACKETS: [u64; 2] = [60, 1_514];

/// Which DMA the transfer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// The device writes host memory (a received packet): posted writes.
    Write,
    /// The device reads host memory (a packet to send): requests out,
    /// completions back.
    Read,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PcieConfig {
    pub generation: u32,
    pub lanes: u32,
    pub mps: u32,
    pub mrrs: u32,
    pub size: u64,
    pub kind: Kind,
    pub tags: u32,
    pub latency_ns: u64,
}

impl Default for PcieConfig {
    /// Gen3 ×8 as the open model's defaults, a 1,500-byte write, and the
    /// 256 tags of the 8-bit Extended Tag field against a 500 ns read
    /// latency; Break it takes tags away.
    fn default() -> Self {
        let link = Link::default();
        PcieConfig {
            generation: link.generation.number(),
            lanes: link.lanes,
            mps: link.mps,
            mrrs: link.mrrs,
            size: 1_500,
            kind: Kind::Write,
            tags: 256,
            latency_ns: 500,
        }
    }
}

/// One TLP of the transfer, in the order the link carries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tlp {
    pub kind: TlpKind,
    /// Data bytes it carries.
    pub data: u64,
    /// Framing, sequence number, LCRC, header and digest.
    pub overhead: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlpKind {
    /// Memory write, device to host.
    MemWrite,
    /// Memory read request, device to host.
    MemRead,
    /// Completion with data, host to device.
    Completion,
}

impl TlpKind {
    pub fn short(self) -> &'static str {
        match self {
            TlpKind::MemWrite => "MWr",
            TlpKind::MemRead => "MRd",
            TlpKind::Completion => "CplD",
        }
    }

    /// Whether it goes from the device up to the host.
    pub fn upstream(self) -> bool {
        self != TlpKind::Completion
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pcie {
    pub generation: u32,
    pub lanes: u32,
    pub mps: u32,
    pub mrrs: u32,
    pub addr64: bool,
    pub ecrc: bool,
    pub size: u64,
    pub kind: Kind,
    pub tags: u32,
    pub latency_ns: u64,
    /// TLPs of the transfer sent so far.
    pub sent: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PcieAction {
    /// Send the next TLP.
    Send,
    /// Send the rest of the transfer.
    SendAll,
    SetGeneration(u32),
    SetLanes(u32),
    SetMps(u32),
    SetMrrs(u32),
    SetSize(u64),
    SetKind(Kind),
    SetAddr64(bool),
    SetEcrc(bool),
    SetTags(u32),
    SetLatency(u64),
}

impl Pcie {
    /// The link as the engine's rules read it.
    pub fn link(&self) -> Link {
        Link {
            generation: Generation::from_number(self.generation).unwrap_or(Generation::Gen3),
            lanes: self.lanes,
            mps: self.mps,
            mrrs: self.mrrs,
            rcb: COMPLETION_BOUNDARIES[0],
            addr64: self.addr64,
            ecrc: self.ecrc,
            rcb_chunks: false,
        }
    }

    /// The transfer's TLPs in the order the link carries them: a write's
    /// MWrs; a read's requests (cut at the MRRS), each followed by the
    /// completions that begin within the bytes it asked for. Completions are
    /// cut at the MPS across the whole read, as the open model counts them
    /// (`transfer::read`), so the list and the bandwidth agree.
    pub fn tlps(&self) -> Vec<Tlp> {
        let link = self.link();
        let mps = u64::from(self.mps);
        let tlp = |kind, data, overhead| Tlp {
            kind,
            data,
            overhead,
        };
        match self.kind {
            Kind::Write => chunks(self.size, mps)
                .map(|data| tlp(TlpKind::MemWrite, data, link.request_overhead()))
                .collect(),
            Kind::Read => {
                let mrrs = u64::from(self.mrrs);
                let mut completions = chunks(self.size, mps).enumerate().peekable();
                let mut out = Vec::new();
                for (i, _) in chunks(self.size, mrrs).enumerate() {
                    out.push(tlp(TlpKind::MemRead, 0, link.request_overhead()));
                    let asked_end = (i as u64 + 1) * mrrs;
                    while let Some((_, data)) =
                        completions.next_if(|&(k, _)| (k as u64) * mps < asked_end)
                    {
                        out.push(tlp(TlpKind::Completion, data, link.completion_overhead()));
                    }
                }
                out
            }
        }
    }

    /// Gb/s of data the transfer gets from the link alone.
    pub fn link_gbps(&self) -> f64 {
        match self.kind {
            Kind::Write => write_gbps(&self.link(), self.size),
            Kind::Read => read_gbps(&self.link(), self.size),
        }
    }

    /// Little's law for reads: at most `tags` requests of up to MRRS bytes
    /// each in flight, each for `latency`: bytes × 8 / ns is Gb/s.
    pub fn tag_limit_gbps(&self) -> f64 {
        let per_request = self.size.min(u64::from(self.mrrs));
        (u64::from(self.tags) * per_request * 8) as f64 / self.latency_ns as f64
    }

    /// Whether the tags, not the link, limit this transfer.
    pub fn tag_bound(&self) -> bool {
        self.kind == Kind::Read && self.tag_limit_gbps() < self.link_gbps()
    }

    /// Gb/s of data the transfer gets: the link's, or for a read the tags'
    /// if fewer.
    pub fn effective_gbps(&self) -> f64 {
        if self.tag_bound() {
            self.tag_limit_gbps()
        } else {
            self.link_gbps()
        }
    }

    /// Data bytes over wire bytes of the whole transfer, in both directions.
    pub fn data_share(&self) -> f64 {
        let tlps = self.tlps();
        let wire: u64 = tlps.iter().map(|t| t.data + t.overhead).sum();
        self.size as f64 / wire as f64
    }

    /// Packets a second a simple NIC's receive path sustains at `bytes`.
    pub fn receive_rate(&self, bytes: u64) -> f64 {
        packet_rate(&self.link(), &per_packet(Path::Receive, bytes))
    }

    /// How many TLPs the transfer takes.
    pub fn total(&self) -> usize {
        let link = self.link();
        let count = match self.kind {
            Kind::Write => transfer::write(&link, self.size).count,
            Kind::Read => {
                let read = transfer::read(&link, self.size);
                read.requests.count + read.completions.count
            }
        };
        count as usize
    }

    fn restart(&mut self, change: String) -> Outcome {
        self.sent = 0;
        Ok(vec![Event::info(format!(
            "{change} The transfer starts again: {} bytes in {} TLP{}, {} Gb/s of data.",
            grouped(self.size as i64),
            self.total(),
            plural(self.total()),
            decimal(self.effective_gbps(), 2)
        ))
        .at("tlp-0")])
    }

    /// The settings, as a share link's configuration holds them.
    pub fn config(&self) -> PcieConfig {
        PcieConfig {
            generation: self.generation,
            lanes: self.lanes,
            mps: self.mps,
            mrrs: self.mrrs,
            size: self.size,
            kind: self.kind,
            tags: self.tags,
            latency_ns: self.latency_ns,
        }
    }

    /// Changes one setting, if the configuration stays valid, and starts
    /// the transfer again.
    fn setting<T: PartialEq + Copy + std::fmt::Display>(
        &mut self,
        value: T,
        current: fn(&mut Pcie) -> &mut T,
        what: &str,
        unit: &str,
    ) -> Outcome {
        if *current(self) == value {
            return Err(Refusal::new(format!(
                "The {what} is already {value}{unit}."
            )));
        }
        let mut next = self.clone();
        *current(&mut next) = value;
        Pcie::validate(&next.config()).map_err(Refusal::new)?;
        *self = next;
        self.restart(format!("The {what} is now {value}{unit}."))
    }

    fn send(&mut self) -> Outcome {
        let tlps = self.tlps();
        let Some(tlp) = tlps.get(self.sent).copied() else {
            return Err(self.finished());
        };
        self.sent += 1;
        let wire = tlp.data + tlp.overhead;
        let way = if tlp.kind.upstream() {
            "device to host"
        } else {
            "host to device"
        };
        let what = match tlp.kind {
            TlpKind::MemWrite => format!(
                "a memory write carrying {} bytes behind {} bytes of framing and header: {} % of its {wire} bytes are data",
                tlp.data,
                tlp.overhead,
                decimal(100.0 * tlp.data as f64 / wire as f64, 1)
            ),
            TlpKind::MemRead => format!(
                "a read request, {wire} bytes and no data, asking for up to {} bytes",
                self.mrrs
            ),
            TlpKind::Completion => format!(
                "a completion bringing {} bytes back behind {} bytes of framing and header",
                tlp.data, tlp.overhead
            ),
        };
        let mut events = vec![Event::info(format!(
            "TLP {} of {} ({way}): {what}.",
            self.sent,
            tlps.len()
        ))
        .at(format!("tlp-{}", self.sent - 1))];
        if self.sent == tlps.len() {
            events.push(self.summary());
        }
        Ok(events)
    }

    fn send_all(&mut self) -> Outcome {
        let total = self.total();
        if self.sent >= total {
            return Err(self.finished());
        }
        self.sent = total;
        Ok(vec![self.summary()])
    }

    fn summary(&self) -> Event {
        let tone = if self.tag_bound() {
            Event::fault
        } else {
            Event::done
        };
        tone(format!(
            "All {} TLPs sent. {} % of the bytes on the wire were data; back to back, such transfers get {} Gb/s of the link's {} Gb/s for TLPs.",
            self.total(),
            decimal(100.0 * self.data_share(), 1),
            decimal(self.effective_gbps(), 2),
            decimal(tlp_gbps(&self.link()), 2)
        ))
        .at("curve")
    }

    fn finished(&self) -> Refusal {
        Refusal::new(
            "The whole transfer has been sent. Change a setting or press Reset to send it again.",
        )
    }
}

/// `total` bytes cut into pieces of at most `piece`.
fn chunks(total: u64, piece: u64) -> impl Iterator<Item = u64> {
    let count = total.div_ceil(piece.max(1));
    (0..count).map(move |i| piece.min(total - i * piece))
}

impl Model for Pcie {
    type Config = PcieConfig;
    type Action = PcieAction;

    /// The link's rules are the engine's (`Link::check`); the demo adds its
    /// own bounds on the transfer, the tags and the latency.
    fn validate(c: &PcieConfig) -> Result<(), String> {
        let generation = Generation::from_number(c.generation)
            .ok_or_else(|| format!("The generation is 1 to 5; {} is not.", c.generation))?;
        Link {
            generation,
            lanes: c.lanes,
            mps: c.mps,
            mrrs: c.mrrs,
            ..Link::default()
        }
        .check()
        .map_err(|e| capitalised(&e))?;
        SIZE.check(c.size)?;
        TAGS.check(c.tags)?;
        LATENCY.check(c.latency_ns)?;
        Ok(())
    }

    fn new(c: &PcieConfig) -> Self {
        Pcie {
            generation: c.generation,
            lanes: c.lanes,
            mps: c.mps,
            mrrs: c.mrrs,
            addr64: true,
            ecrc: false,
            size: c.size,
            kind: c.kind,
            tags: c.tags,
            latency_ns: c.latency_ns,
            sent: 0,
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "A Gen{} ×{} link. The device will {} {} bytes of host memory in {} TLPs; Step sends the next one.",
            self.generation,
            self.lanes,
            match self.kind {
                Kind::Write => "write",
                Kind::Read => "read",
            },
            grouped(self.size as i64),
            self.total()
        ))
    }

    fn apply(&mut self, action: &PcieAction) -> Outcome {
        match *action {
            PcieAction::Send => self.send(),
            PcieAction::SendAll => self.send_all(),
            PcieAction::SetGeneration(g) => {
                self.setting(g, |m| &mut m.generation, "generation", "")
            }
            PcieAction::SetLanes(n) => self.setting(n, |m| &mut m.lanes, "link width", " lanes"),
            PcieAction::SetMps(n) => {
                self.setting(n, |m| &mut m.mps, "maximum payload size", " bytes")
            }
            PcieAction::SetMrrs(n) => {
                self.setting(n, |m| &mut m.mrrs, "maximum read request size", " bytes")
            }
            PcieAction::SetSize(n) => self.setting(n, |m| &mut m.size, "transfer size", " bytes"),
            PcieAction::SetKind(kind) => {
                if kind == self.kind {
                    return Err(Refusal::new("The transfer is already of that kind."));
                }
                self.kind = kind;
                self.restart(match kind {
                    Kind::Write => {
                        "Now the device writes host memory, as it does with a received packet."
                            .into()
                    }
                    Kind::Read => {
                        "Now the device reads host memory, as it does with a packet to send.".into()
                    }
                })
            }
            PcieAction::SetAddr64(on) => {
                if on == self.addr64 {
                    return Err(Refusal::new("The address width is already that."));
                }
                self.addr64 = on;
                self.restart(if on {
                    "Requests now carry 64-bit addresses: a 4-doubleword header.".into()
                } else {
                    "Requests now carry 32-bit addresses: a 3-doubleword header, 4 bytes less."
                        .into()
                })
            }
            PcieAction::SetEcrc(on) => {
                if on == self.ecrc {
                    return Err(Refusal::new(if on {
                        "ECRC is already on."
                    } else {
                        "ECRC is already off."
                    }));
                }
                self.ecrc = on;
                self.restart(if on {
                    "Every TLP now carries a 4-byte end-to-end CRC.".into()
                } else {
                    "TLPs no longer carry an end-to-end CRC.".into()
                })
            }
            PcieAction::SetTags(n) => self.setting(n, |m| &mut m.tags, "number of read tags", ""),
            PcieAction::SetLatency(ns) => {
                self.setting(ns, |m| &mut m.latency_ns, "read latency", " ns")
            }
        }
    }

    fn next_auto(&self) -> Result<PcieAction, Refusal> {
        if self.sent < self.total() {
            Ok(PcieAction::Send)
        } else {
            Err(self.finished())
        }
    }

    fn check(&self) -> Result<(), String> {
        Self::validate(&self.config())?;
        let tlps = self.tlps();
        if self.sent > tlps.len() {
            return Err("more TLPs sent than the transfer has".into());
        }
        if tlps.len() != self.total() {
            return Err("the TLP list and its count disagree".into());
        }
        if tlps.iter().map(|t| t.data).sum::<u64>() != self.size {
            return Err("the TLPs do not carry the transfer's bytes exactly once".into());
        }
        if tlps.iter().any(|t| t.data > u64::from(self.mps)) {
            return Err("a TLP carries more than the MPS".into());
        }
        let link = self.link();
        if !(self.effective_gbps() <= tlp_gbps(&link) && tlp_gbps(&link) < link.raw_gbps()) {
            return Err("a layer added bandwidth".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let link = self.link();
        let mut out = vec![
            Figure::new(
                "raw",
                "link, each way",
                format!("{} Gb/s", decimal(link.raw_gbps(), 2)),
            ),
            Figure::new(
                "tlp",
                "left for TLPs",
                format!("{} Gb/s", decimal(tlp_gbps(&link), 2)),
            ),
            Figure::new(
                "effective",
                "this transfer's data",
                format!("{} Gb/s", decimal(self.effective_gbps(), 2)),
            ),
            Figure::new(
                "data-share",
                "data on the wire",
                format!("{} %", decimal(100.0 * self.data_share(), 1)),
            ),
            Figure::new(
                "sent",
                "TLPs sent",
                format!("{}/{}", self.sent, self.total()),
            ),
        ];
        if self.kind == Kind::Read {
            out.push(Figure::new(
                "tag-limit",
                "tags allow",
                format!("{} Gb/s", decimal(self.tag_limit_gbps(), 2)),
            ));
        }
        out.push(Figure::new(
            "rx-64",
            "NIC receive, 60-byte packets",
            format!(
                "{} M pkt/s",
                decimal(self.receive_rate(PACKETS[0]) / 1e6, 1)
            ),
        ));
        out
    }

    fn why(&self) -> Vec<String> {
        let link = self.link();
        let generation = Generation::from_number(self.generation).unwrap_or(Generation::Gen3);
        let mut out = vec![
            format!(
                "Gen{} sends {} GT/s per lane with {} encoding, so ×{} carries {} Gb/s each way ({} GB/s): both directions have that much at once. ACK and flow-control DLLPs and SKP ordered sets leave {} Gb/s for TLPs.",
                self.generation,
                decimal(generation.gigatransfers(), 1),
                generation.encoding().name(),
                self.lanes,
                decimal(link.raw_gbps(), 2),
                decimal(link.raw_gbps() / 8.0, 2),
                decimal(tlp_gbps(&link), 2)
            ),
            format!(
                "Every TLP pays {} bytes of framing, sequence number and LCRC plus its header whatever it carries, so a {}-byte transfer puts only {} % data on the wire. Bigger transfers, up to the MPS per TLP, spread that cost.",
                super::link::FRAMING_BYTES,
                grouped(self.size as i64),
                decimal(100.0 * self.data_share(), 1)
            ),
        ];
        if self.kind == Kind::Read {
            out.push(format!(
                "A read needs both directions: requests go up, completions come down. With {} tags and {} ns of latency, at most {} requests of {} bytes are in flight: {} Gb/s by Little's law{}.",
                self.tags,
                self.latency_ns,
                self.tags,
                self.size.min(u64::from(self.mrrs)),
                decimal(self.tag_limit_gbps(), 2),
                if self.tag_bound() {
                    ", less than the link could carry: the tags, not the link, set the pace"
                } else {
                    ", more than the link carries, so the link sets the pace"
                }
            ));
        }
        out.push(format!(
            "A simple NIC spends five or six PCIe transactions on every packet it receives (doorbell, descriptor fetch, the packet, write-back, interrupt, head-pointer read), so this link takes {} million 60-byte packets a second but {} million 1,514-byte ones.",
            decimal(self.receive_rate(PACKETS[0]) / 1e6, 1),
            decimal(self.receive_rate(PACKETS[1]) / 1e6, 2)
        ));
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: replays after bit errors, flow-control credits running out, completions split at the read completion boundary (when the MRRS is below the MPS, a read's completions are counted cut at the MPS across the whole read, as the open model counts them), 10-bit tags, the latency of each TLP (it counts bytes, not time), and a NIC's batching of doorbells, write-backs and interrupts."
    }
}
