//! Every demo's picture fits a phone: in the narrow layout each figure is at
//! most `NARROW_WIDTH` units wide, every shape and (by an estimate of its
//! width) every text lies inside it, and it tells the same story as the wide
//! layout: the same figures, the same labelled and clickable shapes with the
//! same states, the same tables and lists. Checked at the start, after each
//! of the first Steps, and after pressing each thing the first frame offers.
//!
//! `NARROW_PREVIEW=/some/dir cargo test -p views --test narrow_layouts`
//! also writes each demo's narrow figures, as a 360-px phone shows them, to
//! `<dir>/<demo>.html` (open it, or screenshot it with headless Chromium).

use views::control::Control;
use views::scene::{Anchor, Kind};
use views::{open, Figure, Input, Layout, LiveDemo, Part, Scene, Shape, Slot, View, NARROW_WIDTH};

mod every_demo;

/// Steps checked after opening.
const STEPS: usize = 24;
/// How far (figure units) an estimated text end may pass the edge: the
/// estimate is rough, a real overflow is larger.
const SLACK: f32 = 4.0;

/// Horizontal and vertical extent of a shape, offset by its groups.
fn extent(s: &Shape, dx: f32, dy: f32, out: &mut Vec<(String, f32, f32, f32, f32)>) {
    let mut put = |x0: f32, y0: f32, x1: f32, y1: f32| {
        out.push((
            s.key.clone(),
            x0.min(x1) + dx,
            y0.min(y1) + dy,
            x0.max(x1) + dx,
            y0.max(y1) + dy,
        ))
    };
    match &s.kind {
        Kind::Rect { x, y, w, h, .. } => put(*x, *y, x + w, y + h),
        Kind::Circle { x, y, r } => put(x - r, y - r, x + r, y + r),
        Kind::Line { x1, y1, x2, y2, .. } => put(*x1, *y1, *x2, *y2),
        Kind::Path { start, end, .. } => {
            put(start[0].0, start[0].1, start[0].0, start[0].1);
            put(end[1].0, end[1].1, end[1].0, end[1].1);
        }
        Kind::Text {
            x,
            y,
            text,
            anchor,
            size,
            mono,
        } => {
            let w = text.chars().count() as f32 * size.advance(*mono);
            let (x0, x1) = match anchor {
                Anchor::Start => (*x, x + w),
                Anchor::Middle => (x - w / 2.0, x + w / 2.0),
                Anchor::End => (x - w, *x),
            };
            put(x0, y - size.units() * 0.8, x1, *y);
        }
        Kind::Group { x, y, children } => {
            for c in children {
                extent(c, dx + x, dy + y, out);
            }
        }
    }
}

/// What a figure tells a reader, whatever its arrangement.
fn story(f: &Figure) -> Vec<String> {
    let mut lines: Vec<String> = f
        .walk()
        .into_iter()
        .filter(|s| s.label.is_some() || s.on_click.is_some())
        .map(|s| {
            format!(
                "{} | {:?} | {:?} | clickable {}",
                s.key,
                s.label,
                s.state,
                s.on_click.is_some()
            )
        })
        .collect();
    lines.sort();
    lines
}

fn check_narrow(wide: &Scene, narrow: &Scene, when: &str) {
    let at = |what: String| format!("{} {when}: {what}", wide.title);
    assert_eq!(wide.title, narrow.title, "{}", at("title".into()));
    assert_eq!(wide.summary, narrow.summary, "{}", at("summary".into()));
    assert_eq!(
        wide.parts.len(),
        narrow.parts.len(),
        "{}",
        at("parts".into())
    );
    for (w, n) in wide.parts.iter().zip(&narrow.parts) {
        match (w, n) {
            (Part::Figure(w), Part::Figure(n)) => {
                assert_eq!(w.key, n.key, "{}", at("figure order".into()));
                assert!(
                    n.width <= NARROW_WIDTH,
                    "{}",
                    at(format!(
                        "figure {} is {} units wide in the narrow layout",
                        n.key, n.width
                    ))
                );
                assert_eq!(w.label, n.label, "{}", at(format!("{} label", n.key)));
                assert_eq!(w.legend, n.legend, "{}", at(format!("{} legend", n.key)));
                assert_eq!(story(w), story(n), "{}", at(format!("{} shapes", n.key)));
                let mut boxes = Vec::new();
                n.shapes
                    .iter()
                    .for_each(|s| extent(s, 0.0, 0.0, &mut boxes));
                for (key, x0, y0, x1, y1) in boxes {
                    assert!(
                        x0 >= -SLACK && x1 <= n.width + SLACK && y0 >= -SLACK && y1 <= n.height + SLACK,
                        "{}",
                        at(format!(
                            "in figure {} ({}×{}), {key} spans x {x0:.0}..{x1:.0}, y {y0:.0}..{y1:.0}",
                            n.key, n.width, n.height
                        ))
                    );
                }
            }
            (w, n) => assert_eq!(w, n, "{}", at("a table or list differs".into())),
        }
    }
}

fn both(demo: &mut dyn LiveDemo) -> (Scene, Scene) {
    demo.set_layout(Layout::Wide);
    let wide = demo.frame().scene;
    demo.set_layout(Layout::Narrow);
    let narrow = demo.frame().scene;
    (wide, narrow)
}

/// Every slot a press can send from a list of controls.
fn control_slots(controls: &[Control], out: &mut Vec<Slot>) {
    for control in controls {
        match control {
            Control::Button(b) => out.push(b.send),
            Control::Toggle(t) => out.push(t.send),
            Control::Choice(c) => out.extend(c.options.iter().map(|o| o.send)),
            Control::Group(g) => control_slots(&g.controls, out),
            _ => {}
        }
    }
}

/// Every slot a press can send in a frame, controls and shapes.
fn pressable(controls: &[Control], scene: &Scene, out: &mut Vec<Slot>) {
    control_slots(controls, out);
    for f in scene.figures() {
        out.extend(f.walk().into_iter().filter_map(|s| s.on_click));
    }
}

/// Steps after which the preview shows the picture again.
const PREVIEW_AT: [usize; 3] = [0, 3, 10];

fn preview(name: &str, shots: &[(usize, Scene)]) {
    let Ok(dir) = std::env::var("NARROW_PREVIEW") else {
        return;
    };
    let mut body = String::new();
    for (step, scene) in shots {
        body.push_str(&format!("<h2>after {step} steps</h2>"));
        for f in scene.figures() {
            body.push_str(&format!(
                "<p>{} — {}×{}</p><div class=phone>",
                f.key, f.width, f.height
            ));
            body.push_str(&views::export::figure_markup(f));
            body.push_str("</div>");
        }
    }
    let page = format!(
        "<!doctype html><meta charset=utf-8><style>{}\nbody{{margin:8px;font:14px sans-serif;width:360px}}\
         .phone{{width:360px;border:1px solid #888}} .phone svg{{width:100%;height:auto}}</style>{body}",
        views::export::SCENE_CSS
    );
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(format!("{dir}/{name}.html"), page).unwrap();
}

fn fits_a_phone<M: View>(name: &str) {
    let (mut demo, _) = open::<M>(None);
    // All frames first, so the preview is written even when a check fails.
    let mut frames = vec![both(demo.as_mut())];
    for _ in 1..=STEPS {
        if !demo.step() {
            break;
        }
        frames.push(both(demo.as_mut()));
    }
    let shots: Vec<(usize, Scene)> = PREVIEW_AT
        .iter()
        .filter_map(|&step| Some((step, frames.get(step)?.1.clone())))
        .collect();
    preview(name, &shots);
    for (step, (wide, narrow)) in frames.iter().enumerate() {
        check_narrow(wide, narrow, &format!("after step {step}"));
    }
    // Each thing the first frame offers, pressed on a fresh demo, then a Step.
    let (mut first, _) = open::<M>(None);
    let frame = first.frame();
    let mut slots = Vec::new();
    pressable(&frame.controls, &frame.scene, &mut slots);
    for slot in slots {
        let (mut demo, _) = open::<M>(None);
        demo.frame();
        if demo.send(slot, &Input::Press).is_err() {
            continue;
        }
        let (wide, narrow) = both(demo.as_mut());
        check_narrow(&wide, &narrow, &format!("after pressing slot {slot}"));
        demo.step();
        let (wide, narrow) = both(demo.as_mut());
        check_narrow(&wide, &narrow, &format!("after slot {slot} and a Step"));
    }
}

macro_rules! phones {
    ($($test:ident: $model:ty,)*) => {$(
        #[test]
        fn $test() {
            fits_a_phone::<$model>(stringify!($test));
        }
    )*};
}

every_demo::every_demo!(phones);
