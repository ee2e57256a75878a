//! The PCIe budget: the transfer's TLPs one row each (overhead beside data,
//! on one byte scale), the data rate against transfer size, and what a
//! simple NIC's received packet costs on the link.

mod lesson;

use crate::control::Control;
use crate::draw::chart::Plot;
use crate::knob::bounded;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::host::pcie::link::TRANSFER_SIZES;
use demos::host::pcie::nic::{per_packet, transaction_wire, Initiator, Path};
use demos::host::pcie::transfer::tlp_gbps;
use demos::host::pcie::{Kind, Pcie, PcieAction, LATENCY, PACKETS, SIZE, TAGS};
use demos::text::{decimal, grouped, plural};

/// TLP rows drawn; a longer transfer says how many more there are.
pub const ROWS_DRAWN: usize = 12;
const ROW: f32 = 24.0;
const ROW_PITCH: f32 = 32.0;
const TOP: f32 = 30.0;

/// Columns of the TLP figure: the row's name, the bar, the bytes.
struct Columns {
    width: f32,
    bar_x: f32,
    bar_w: f32,
}

fn columns(layout: Layout) -> Columns {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let bar_x = layout.pick(112.0, 92.0);
    let bytes_w = layout.pick(120.0, 96.0);
    Columns {
        width,
        bar_x,
        bar_w: width - bar_x - bytes_w,
    }
}

fn tlp_figure(m: &Pcie, layout: Layout) -> Figure {
    let c = columns(layout);
    let tlps = m.tlps();
    let widest = tlps.iter().map(|t| t.data + t.overhead).max().unwrap_or(1) as f32;
    let shown = tlps.len().min(ROWS_DRAWN);
    let more = tlps.len() - shown;
    let height = TOP + shown as f32 * ROW_PITCH + if more > 0 { 30.0 } else { 8.0 };
    let mut f = Figure::new(
        "tlps",
        format!(
            "The transfer's {} TLP{}, {} sent: each row is one TLP's bytes on the wire, framing and header beside data",
            tlps.len(),
            plural(tlps.len()),
            m.sent
        ),
        c.width,
        height,
    )
    .legend("warn", "framing, sequence number, LCRC, header, digest")
    .legend("done", "data")
    .legend("idle", "not sent yet");
    f.push(
        Shape::text("head-bytes", c.width - 4.0, 18.0, "overhead + data")
            .end()
            .size(Size::Small),
    );
    for (i, t) in tlps.iter().take(shown).enumerate() {
        let y = TOP + i as f32 * ROW_PITCH;
        let sent = i < m.sent;
        let scale = c.bar_w / widest;
        let over_w = t.overhead as f32 * scale;
        let data_w = t.data as f32 * scale;
        let way = if t.kind.upstream() { "↑" } else { "↓" };
        let mut parts = vec![
            Shape::text(
                "name",
                4.0,
                y + 17.0,
                format!("{} {}{way}", i + 1, t.kind.short()),
            )
            .start()
            .mono(),
            Shape::rect("overhead", c.bar_x, y, over_w.max(1.0), ROW).class(if sent {
                "warn"
            } else {
                "idle"
            }),
        ];
        if t.data > 0 {
            parts.push(
                Shape::rect("data", c.bar_x + over_w, y, data_w.max(1.0), ROW).class(if sent {
                    "done"
                } else {
                    "idle"
                }),
            );
        }
        parts.push(
            Shape::text(
                "bytes",
                c.width - 4.0,
                y + 17.0,
                format!("{} + {}", t.overhead, t.data),
            )
            .end()
            .mono(),
        );
        let state = if sent { "sent" } else { "pending" };
        f.push(
            Shape::group(format!("tlp-{i}"), parts)
                .state(state)
                .focus(format!("tlp-{i}"))
                .label(format!(
                    "TLP {} {}, {}: {} bytes of overhead and {} of data",
                    i + 1,
                    t.kind.short(),
                    state,
                    t.overhead,
                    t.data
                )),
        );
    }
    if more > 0 {
        f.push(
            Shape::text(
                "more",
                4.0,
                height - 10.0,
                format!("… and {more} more; {} of {} sent", m.sent, tlps.len()),
            )
            .start()
            .size(Size::Small),
        );
    }
    f
}

/// Transfer sizes to draw the curve at: a geometric grid, and both sides
/// of every MPS and MRRS boundary, where the curve jumps.
fn curve_sizes(m: &Pcie) -> Vec<u64> {
    let mut sizes = Vec::new();
    let mut s = 16.0_f64;
    while s <= SIZE.max as f64 {
        sizes.push(s as u64);
        s *= 1.08;
    }
    for step in [u64::from(m.mps), u64::from(m.mrrs)] {
        let mut k = step;
        while k < SIZE.max {
            sizes.extend([k, k + 1]);
            k += step;
        }
    }
    sizes.push(SIZE.max);
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

fn curve(m: &Pcie, layout: Layout) -> Figure {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let plot = Plot::new(
        (layout.pick(64.0, 48.0), 36.0, width - 16.0, 250.0),
        (16.0, SIZE.max as f64, true),
        (0.0, tlp_gbps(&m.link()) * 1.1, false),
    );
    let top = tlp_gbps(&m.link());
    // Powers of 16 from 16 bytes: evenly spaced on the log axis.
    let x_ticks: Vec<(f64, String)> = [
        (16, "16 B"),
        (256, "256 B"),
        (4_096, "4 KiB"),
        (65_536, "64 KiB"),
    ]
    .iter()
    .map(|&(v, label)| (f64::from(v), label.to_string()))
    .collect();
    let y_ticks: Vec<(f64, String)> = (0..=4)
        .map(|k| {
            let v = top * f64::from(k) / 4.0;
            (v, decimal(v, 0))
        })
        .collect();
    let mut f = Figure::new(
        "curve",
        format!(
            "Data rate of back-to-back {} against transfer size; {} Gb/s at {} bytes",
            if m.kind == Kind::Write {
                "DMA writes"
            } else {
                "DMA reads"
            },
            decimal(m.effective_gbps(), 2),
            grouped(m.size as i64)
        ),
        width,
        310.0,
    )
    .legend("accent dashed", "left for TLPs")
    .legend("nic", "this kind of transfer, by the link")
    .legend("fault", "what the read tags allow");
    f.push(plot.axes(&x_ticks, &y_ticks, "transfer size (log)", "Gb/s"));
    f.push(plot.series(
        "tlp-line",
        &[(16.0, top), (SIZE.max as f64, top)],
        "accent dashed",
    ));
    let at = |size: u64| {
        let mut probe = m.clone();
        probe.size = size;
        probe
    };
    let sizes = curve_sizes(m);
    let link_points: Vec<(f64, f64)> = sizes
        .iter()
        .map(|&s| (s as f64, at(s).link_gbps()))
        .collect();
    f.push(plot.series("link-line", &link_points, "nic").focus("curve"));
    if m.kind == Kind::Read {
        let tag_points: Vec<(f64, f64)> = sizes
            .iter()
            .map(|&s| (s as f64, at(s).tag_limit_gbps().min(top * 1.1)))
            .collect();
        f.push(plot.series("tag-line", &tag_points, "fault"));
    }
    f.push(plot.dot(
        "now",
        (m.size as f64, m.effective_gbps()),
        if m.tag_bound() { "fault" } else { "done" },
    ));
    f.push(plot.marker(
        "size-marker",
        m.size as f64,
        format!("{} B", grouped(m.size as i64)),
        "",
    ));
    f
}

/// A simple NIC's transactions for one received packet, at the two sizes.
fn nic_table(m: &Pcie) -> Table {
    let link = m.link();
    let mut t = Table::new(
        "nic",
        format!(
            "What each packet a simple NIC receives costs on this Gen{} ×{} link (bytes up to the host / down to the NIC)",
            m.generation, m.lanes
        ),
        &["per packet", "by", "60 B", "1,514 B"],
    );
    let small = per_packet(Path::Receive, PACKETS[0]);
    let big = per_packet(Path::Receive, PACKETS[1]);
    let each_way = |t| {
        let w = transaction_wire(&link, t);
        format!("{} / {}", w.outbound, w.inbound)
    };
    for (i, (a, b)) in small.iter().zip(&big).enumerate() {
        t.row(
            format!("nic-{i}"),
            vec![
                Cell::text(a.what),
                Cell::text(match a.by {
                    Initiator::Device => "NIC",
                    Initiator::Host => "driver",
                }),
                Cell::mono(each_way(a)),
                Cell::mono(each_way(b)),
            ],
        )
        .focus("nic");
    }
    let rate = |bytes: u64| format!("{} M", decimal(m.receive_rate(bytes) / 1e6, 2));
    t.row(
        "nic-rate",
        vec![
            Cell::text("packets a second"),
            Cell::text("link"),
            Cell::mono(rate(PACKETS[0])).key("rate-small"),
            Cell::mono(rate(PACKETS[1])).key("rate-big"),
        ],
    )
    .class("done");
    t
}

impl View for Pcie {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let layout = ui.layout();
        Scene::new(
            "PCIe budget",
            format!(
                "Gen{} ×{}, MPS {}, MRRS {}: a {}-byte DMA {} in {} TLPs, {} sent; {} % of the bytes on the wire are data; {} Gb/s of data, of {} Gb/s left for TLPs{}.",
                self.generation,
                self.lanes,
                self.mps,
                self.mrrs,
                grouped(self.size as i64),
                if self.kind == Kind::Write { "write" } else { "read" },
                self.total(),
                self.sent,
                decimal(100.0 * self.data_share(), 1),
                decimal(self.effective_gbps(), 2),
                decimal(tlp_gbps(&self.link()), 2),
                if self.tag_bound() { "; the read tags, not the link, set the pace" } else { "" }
            ),
        )
        .figure(tlp_figure(self, layout))
        .figure(curve(self, layout))
        .table(nic_table(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let kinds = vec![
            (
                "write",
                "DMA write (a received packet)".to_string(),
                ui.act(PcieAction::SetKind(Kind::Write)),
            ),
            (
                "read",
                "DMA read (a packet to send)".to_string(),
                ui.act(PcieAction::SetKind(Kind::Read)),
            ),
        ];
        let kind = usize::from(self.kind == Kind::Read);
        let sizes = |ui: &mut Ui<Self>,
                     action: fn(u32) -> PcieAction|
         -> Vec<(String, String, crate::slot::Slot)> {
            TRANSFER_SIZES
                .iter()
                .map(|&s| (s.to_string(), format!("{s} bytes"), ui.act(action(s))))
                .collect()
        };
        let at = |values: &[u32], v: u32| values.iter().position(|&x| x == v).unwrap_or(0);
        let link = super::link::link_controls(
            ui,
            self.generation,
            self.lanes,
            PcieAction::SetGeneration,
            PcieAction::SetLanes,
        );
        let mut out = vec![
            Control::choice("kind", "Transfer", kind, kinds),
            bounded(
                ui,
                "size",
                "Transfer size",
                &SIZE,
                self.size,
                true,
                PcieAction::SetSize,
            ),
            Control::button("send-all", "Send the rest", ui.act(PcieAction::SendAll)),
            Control::note("Step sends the next TLP; changing a setting starts the transfer again."),
            Control::group("Link", link.to_vec()),
            Control::group(
                "Device programming",
                vec![
                    Control::choice(
                        "mps",
                        "Max payload size (MPS)",
                        at(&TRANSFER_SIZES, self.mps),
                        sizes(ui, PcieAction::SetMps),
                    )
                    .dropdown(),
                    Control::choice(
                        "mrrs",
                        "Max read request (MRRS)",
                        at(&TRANSFER_SIZES, self.mrrs),
                        sizes(ui, PcieAction::SetMrrs),
                    )
                    .dropdown(),
                    Control::toggle(
                        "addr64",
                        "64-bit addresses",
                        self.addr64,
                        ui.act(PcieAction::SetAddr64(!self.addr64)),
                    ),
                    Control::toggle(
                        "ecrc",
                        "End-to-end CRC (ECRC)",
                        self.ecrc,
                        ui.act(PcieAction::SetEcrc(!self.ecrc)),
                    ),
                ],
            ),
        ];
        out.push(Control::danger_group(
            "Break it",
            vec![
                bounded(
                    ui,
                    "tags",
                    "Read tags in flight",
                    &TAGS,
                    self.tags,
                    false,
                    PcieAction::SetTags,
                )
                .danger(),
                bounded(
                    ui,
                    "latency",
                    "Read latency",
                    &LATENCY,
                    self.latency_ns,
                    false,
                    PcieAction::SetLatency,
                ),
                Control::note(
                    "Tags limit reads only: switch the transfer to a DMA read, and try Gen5 ×16.",
                ),
            ],
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::host::pcie::PcieConfig;
    use demos::Model;

    #[test]
    fn each_tlp_is_a_row_until_the_rows_run_out() {
        let m = Pcie::new(&PcieConfig::default());
        let scene = crate::build(&m, &()).0;
        assert!(scene.find("tlp-5").is_some());
        assert!(scene.find("tlp-6").is_none());
        let mut long = m.clone();
        long.apply(&PcieAction::SetSize(65_536)).unwrap();
        let scene = crate::build(&long, &()).0;
        assert!(scene.find(&format!("tlp-{}", ROWS_DRAWN - 1)).is_some());
        let more = scene.find("more").unwrap().text_content().unwrap();
        assert!(more.contains("244 more; 0 of 256 sent"), "{more}");
    }

    #[test]
    fn a_sent_tlp_changes_its_state_not_its_place() {
        let mut m = Pcie::new(&PcieConfig::default());
        let before = crate::build(&m, &()).0;
        m.apply(&PcieAction::Send).unwrap();
        let after = crate::build(&m, &()).0;
        let state = |s: &Scene| s.find("tlp-0").unwrap().state.clone();
        assert_eq!(state(&before).as_deref(), Some("pending"));
        assert_eq!(state(&after).as_deref(), Some("sent"));
    }
}
