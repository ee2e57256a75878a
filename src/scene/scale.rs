//! How large a figure is drawn: each `<svg class="scene">` carries its
//! drawing scale (CSS px per figure unit, in thousandths) as the CSS
//! variable `--scale-milli`, kept by one `ResizeObserver`. static/app.css
//! reads it to keep the pictures' text at least `--text-floor` px on screen
//! (12 on a phone, 14 wider, 24 in presenter mode), whatever the figure's
//! width and the window: the text grows in figure units as the figure is
//! drawn smaller. Without the variable (a browser without ResizeObserver,
//! a downloaded figure) text keeps its own size.

use leptos::prelude::WithValue;
use leptos::prelude::{on_cleanup, StoredValue};
use std::cell::RefCell;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

thread_local! {
    static OBSERVER: RefCell<Option<web_sys::ResizeObserver>> = const { RefCell::new(None) };
}

/// Keeps `svg`'s `--scale-milli` as it is resized, until it leaves the page.
///
/// The first scale comes with the observer's first report, which the
/// browser makes after its layout and before it paints: asking for the box
/// here instead would force a layout in the middle of drawing the page
/// (measured: the Step button in the DOM 30 ms later on /cpu/tlb).
pub fn watch(svg: web_sys::Element) {
    let Some(observer) = observer() else {
        return;
    };
    observer.observe(&svg);
    // Held for the cleanup, which must be Send: the page's one thread.
    let held = StoredValue::new_local((svg, observer));
    on_cleanup(move || {
        held.try_with_value(|(svg, observer)| observer.unobserve(svg));
    });
}

fn observer() -> Option<web_sys::ResizeObserver> {
    OBSERVER.with_borrow_mut(|kept| {
        if kept.is_none() {
            let resized = Closure::<dyn FnMut(js_sys::Array)>::new(|entries: js_sys::Array| {
                for entry in entries.iter() {
                    if let Ok(entry) = entry.dyn_into::<web_sys::ResizeObserverEntry>() {
                        let drawn = entry.content_rect();
                        set_scale(&entry.target(), drawn.width(), drawn.height());
                    }
                }
            });
            *kept = web_sys::ResizeObserver::new(resized.as_ref().unchecked_ref()).ok();
            // The page's lifetime: one observer for every picture.
            resized.forget();
        }
        kept.clone()
    })
}

/// `--scale-milli` from the drawn box (the observer's, which costs no
/// layout) and the viewBox: the smaller of the two ratios, as an SVG drawn
/// with `preserveAspectRatio` "meet" scales.
fn set_scale(svg: &web_sys::Element, drawn_width: f64, drawn_height: f64) {
    // The viewBox as the browser read it: parsing its text here would link
    // a float parser into the main module (measured: 18 KiB gzip).
    let Some(svg) = svg.dyn_ref::<web_sys::SvgsvgElement>() else {
        return;
    };
    let Some(view_box) = svg.view_box().base_val() else {
        return;
    };
    let (width, height) = (f64::from(view_box.width()), f64::from(view_box.height()));
    let scale = (drawn_width / width).min(drawn_height / height);
    if !(scale.is_finite() && scale > 0.0) {
        return;
    }
    // Rounded down: text sized for a scale a shade smaller than the drawn
    // one is never under the floor (rounded to nearest, it came out at
    // 11.99 px for a 12-px floor).
    let milli = demos::float::clamped((scale * 1000.0).floor(), 1.0, 100_000.0) as u32;
    let _ = svg
        .style()
        .set_property("--scale-milli", &milli.to_string());
}
