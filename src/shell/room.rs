//! Where the page stands ([`views::Room`]), kept as the window and the
//! picture's column change size: the figures' layout follows the width
//! their column has, which the page measures, rather than a guess from the
//! window's.

use crate::platform::window_width;
use crate::shell::page::Page;
use leptos::prelude::{on_cleanup, LocalStorage, StoredValue, WithValue};
use views::Room;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

/// Where a page about to be drawn stands: its column not measured yet. A
/// page drawn without a window (the native tests) stands in a wide one.
pub fn first(framed: bool, present: bool, lesson_open: bool) -> Room {
    Room {
        window_px: window_width().unwrap_or(f64::from(views::room::TWO_COLUMNS_FROM_PX)),
        column_px: None,
        present,
        framed,
        lesson_open,
    }
}

/// Watches the window and the picture's column for `page` until the page
/// goes; [`Watch::observe`] names the column.
#[derive(Clone, Copy)]
pub struct Watch {
    /// The observer and what it calls, which must live as long.
    observer: StoredValue<Observer, LocalStorage>,
}

type Observer = Option<(web_sys::ResizeObserver, Closure<dyn FnMut(js_sys::Array)>)>;

impl Watch {
    pub fn new(page: Page) -> Watch {
        // The observer's report comes after the browser's layout and before
        // it paints: a layout that changes is drawn in the same frame.
        let resized = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let Ok(entry) = entries.get(0).dyn_into::<web_sys::ResizeObserverEntry>() else {
                return;
            };
            let px = entry.content_rect().width();
            page.rearrange(|room| {
                room.column_px = Some(px);
                room.window_px = window_width().unwrap_or(room.window_px);
            });
        });
        let observer = web_sys::ResizeObserver::new(resized.as_ref().unchecked_ref())
            .ok()
            .map(|observer| (observer, resized));
        let window = leptos::prelude::window_event_listener(leptos::ev::resize, move |_| {
            page.rearrange(|room| room.window_px = window_width().unwrap_or(room.window_px));
        });
        let observer = StoredValue::new_local(observer);
        on_cleanup(move || {
            window.remove();
            observer.try_with_value(|o| o.as_ref().map(|(o, _)| o.disconnect()));
        });
        Watch { observer }
    }

    /// Measures `column`, the element the figures stand in.
    pub fn observe(self, column: &web_sys::Element) {
        self.observer
            .with_value(|o| o.as_ref().map(|(o, _)| o.observe(column)));
    }
}
