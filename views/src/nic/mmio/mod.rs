//! MMIO write vs read: one clock, posted writes above, non-posted reads
//! below, and (break it) a per-packet loop with and without a register read.

mod lesson;

use crate::control::Control;
use crate::draw::lanes::{assign_tracks, heading, wrapped, Axis, Bar};
use crate::knob::bounded;
use crate::layout::Layout;
use crate::live::{Command, Ui, View};
use crate::scene::{Figure, Item, List, Scene, Shape, Size};
use demos::nic::mmio::{Mmio, MmioAction, OpKind, Segment, SegmentKind, COUNT, ISSUE, RTT, WORK};
use demos::text::plural;
use demos::Quantity;

const LANE: f32 = 32.0;
/// Between a core lane and the link lane under it.
const LANE_GAP: f32 = 4.0;
/// A row of small text under a heading: the "break it" note's, and on a
/// phone, where headings take the whole width, a marker's label's too.
const LABEL_ROW: f32 = 18.0;
/// Between the two lines of the loop's count on a phone.
const COUNT_LINE: f32 = 20.0;

/// Semantic class of each kind of bar, with the border style telling apart
/// the kinds that share a colour.
fn class(kind: SegmentKind) -> &'static str {
    match kind {
        SegmentKind::Issue => "driver",
        SegmentKind::Stall => "fault",
        SegmentKind::Free => "done dashed",
        SegmentKind::ToDevice => "nic",
        SegmentKind::Completion => "nic dashed",
        SegmentKind::Work => "idle",
    }
}

fn bars(segments: Vec<Segment>, stack: bool) -> Vec<Bar> {
    let spans: Vec<(f64, f64)> = segments
        .iter()
        .map(|s| (s.start as f64, s.end as f64))
        .collect();
    let tracks = if stack {
        assign_tracks(&spans, 4)
    } else {
        vec![0; spans.len()]
    };
    segments
        .into_iter()
        .zip(tracks)
        .map(|(s, track)| Bar {
            start: s.start as f64,
            end: s.end as f64,
            class: class(s.kind),
            label: s.label,
            track,
        })
        .collect()
}

fn timeline(m: &Mmio, layout: Layout) -> Figure {
    let axis = Axis::laid_out(m.horizon() as f64, layout);
    let label_row = layout.pick(0.0, LABEL_ROW);
    // Top to bottom: each section's heading, the row of its marker's label
    // (beside the heading in the wide layout), then its lanes, each with
    // room for its name above it on a phone.
    let lane_pitch = LANE + LANE_GAP + axis.span.name_room;
    let writes_heading = 46.0;
    let writes_label = writes_heading + label_row;
    let writes_core = writes_label + 8.0 + axis.span.name_room;
    let writes_link = writes_core + lane_pitch;
    let reads_heading = writes_link + LANE + 44.0;
    let reads_label = reads_heading + label_row;
    let reads_core = reads_label + 8.0 + axis.span.name_room;
    let reads_link = reads_core + lane_pitch;
    let loop_heading = reads_link + LANE + 34.0;
    let loop_note = loop_heading + LABEL_ROW;
    let loop_plain = loop_heading + 8.0 + label_row + axis.span.name_room;
    let loop_read = loop_plain + lane_pitch;
    let loop_count = loop_read + LANE + 22.0;
    // The count is one line in the wide layout, two on a phone.
    let height = if m.hot_read {
        loop_count + layout.pick(0.0, COUNT_LINE) + 16.0
    } else {
        reads_link + LANE + 30.0
    };
    let bottom = height - 24.0;
    let now = m.now as f64;
    let t = |ns: u64| ns as f64;
    let mut f = Figure::new(
        "mmio-timeline",
        format!(
            "At {} ns: writes core {}, {} of {} writes landed; reads core {}, {} of {} reads retired",
            m.now,
            m.core_state(OpKind::Write, m.now).label(OpKind::Write),
            m.landed(OpKind::Write, m.now),
            m.count,
            m.core_state(OpKind::Read, m.now).label(OpKind::Read),
            m.retired_reads(m.now),
            m.count
        ),
        axis.span.width,
        height,
    )
    .legend("driver", "issue: the core sends it")
    .legend("fault", "stalled: waiting for the Completion")
    .legend("done dashed", "free: the core can go on")
    .legend("nic", "crossing PCIe to the device")
    .legend("nic dashed", "Completion coming back")
    .legend("idle", "real work per packet");
    f.push(axis.ticks(18.0, bottom, "ns"));
    f.push(heading("h-writes", writes_heading, "Posted writes".into()));
    f.push(axis.lane(
        "writes-core",
        writes_core,
        LANE,
        "core",
        &bars(m.core_segments(OpKind::Write), false),
        now,
    ));
    f.push(axis.lane(
        "writes-link",
        writes_link,
        LANE,
        "PCIe → device",
        &bars(m.link_segments(OpKind::Write), true),
        now,
    ));
    f.push(axis.marker(
        "m-writes-free",
        t(m.writes_core_free()),
        (writes_label - 4.0, writes_link - 2.0),
        writes_label,
        format!("core free {} ns", m.writes_core_free()),
        "done",
    ));
    f.push(axis.marker(
        "m-writes-land",
        t(m.last_write_lands()),
        (writes_link - 2.0, writes_link + LANE + 12.0),
        writes_link + LANE + 16.0,
        format!("last write lands {} ns", m.last_write_lands()),
        "nic",
    ));
    f.push(heading("h-reads", reads_heading, "Non-posted reads".into()));
    f.push(axis.lane(
        "reads-core",
        reads_core,
        LANE,
        "core",
        &bars(m.core_segments(OpKind::Read), false),
        now,
    ));
    f.push(axis.lane(
        "reads-link",
        reads_link,
        LANE,
        "PCIe ⇄ device",
        &bars(m.link_segments(OpKind::Read), false),
        now,
    ));
    f.push(axis.marker(
        "m-reads-free",
        t(m.reads_core_free()),
        (reads_label - 4.0, reads_link + LANE),
        reads_label,
        format!("core free {} ns", m.reads_core_free()),
        "done",
    ));
    if m.hot_read {
        let (plain, read) = m.loop_packets(m.now);
        f.push(heading("h-loop", loop_heading, "Per-packet loop".into()));
        f.push(
            Shape::text("h-loop-sub", 8.0, loop_note, "break it")
                .start()
                .size(Size::Small)
                .class("fault tone"),
        );
        f.push(axis.lane(
            "hot-loop",
            loop_plain,
            LANE,
            "work only",
            &bars(m.loop_segments(false), false),
            now,
        ));
        f.push(
            axis.lane(
                "hot-loop-read",
                loop_read,
                LANE,
                "work + readl()",
                &bars(m.loop_segments(true), false),
                now,
            )
            .focus("hot-loop"),
        );
        let without = format!(
            "by {} ns: {plain} packet{} without the read,",
            m.now,
            plural(plain as usize)
        );
        let with = format!("{read} with it");
        f.extend(
            wrapped(
                "loop-count",
                (axis.span.left, loop_count),
                COUNT_LINE,
                (&without, " ", &with),
                layout,
            )
            .into_iter()
            .map(|line| line.class("muted")),
        );
    }
    f.push(axis.cursor(now, 22.0, bottom));
    f
}

impl View for Mmio {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let m = self;
        let states = List::new("core-states", "The two cores now", "")
            .chips()
            .item(
                Item::new(
                    "writes-state",
                    format!(
                        "writes core: {}",
                        m.core_state(OpKind::Write, m.now).label(OpKind::Write)
                    ),
                )
                .mono(),
            )
            .item(
                Item::new(
                    "reads-state",
                    format!(
                        "reads core: {}",
                        m.core_state(OpKind::Read, m.now).label(OpKind::Read)
                    ),
                )
                .mono(),
            );
        Scene::new(
            "MMIO write vs read",
            format!(
                "{n} posted writes free the core at {} ns; {n} non-posted reads hold it until {} ns. The clock reads {} ns.",
                m.writes_core_free(),
                m.reads_core_free(),
                m.now,
                n = m.count
            ),
        )
        .figure(timeline(m, ui.layout()))
        .list(states)
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let act = |a| Ok(Command::Do(a));
        let mut out = vec![
            bounded(
                ui,
                "issue-cost",
                "Issue cost",
                &ISSUE,
                self.issue_ns,
                false,
                MmioAction::SetIssue,
            ),
            bounded(
                ui,
                "round-trip",
                "PCIe round trip",
                &RTT,
                self.rtt_ns,
                false,
                MmioAction::SetRoundTrip,
            ),
            Control::slider(
                "op-count",
                "Operations of each kind",
                COUNT.control_range(self.count),
                "each",
                ui.number(move |v| act(MmioAction::SetCount(usize::from_i64(v)))),
            ),
            Control::group(
                "Clock",
                vec![Control::button(
                    "run-to-end",
                    "Run to the end",
                    ui.act(MmioAction::RunToEnd),
                )],
            ),
            Control::note(
                "Step moves the clock to the next event; changing a setting restarts it.",
            ),
        ];
        let mut danger = vec![Control::toggle(
            "hot-read",
            "Read a NIC register every packet",
            self.hot_read,
            ui.act(MmioAction::SetHotRead(!self.hot_read)),
        )
        .danger()];
        if self.hot_read {
            danger.push(bounded(
                ui,
                "work",
                "Real work per packet",
                &WORK,
                self.work_ns,
                false,
                MmioAction::SetWork,
            ));
        }
        out.push(Control::danger_group("Break it", danger));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    #[test]
    fn nothing_is_drawn_after_the_clock() {
        let m = Mmio::new(&Default::default());
        let scene = crate::build(&m, &()).0;
        let lane = scene.find("reads-core").unwrap();
        assert_eq!(
            lane.children().len(),
            2,
            "at t = 0 only the name and the track"
        );
    }

    #[test]
    fn breaking_it_adds_the_loop_lanes_and_the_count() {
        let mut m = Mmio::new(&Default::default());
        m.apply(&MmioAction::SetHotRead(true)).unwrap();
        m.apply(&MmioAction::RunToEnd).unwrap();
        let scene = crate::build(&m, &()).0;
        assert!(scene.find("hot-loop-read").is_some());
        let count = scene.find("loop-count").unwrap().text_content().unwrap();
        assert!(
            count.contains("16 packets without the read, 3 with it"),
            "{count}"
        );
    }
}
