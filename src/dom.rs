//! One kind of element for the whole page. Every element the app draws is
//! built here, from its tag, a list of attributes and a list of children,
//! and handed to Leptos as one type: an element of runtime tag (SVG ones by
//! their tag), its attributes erased (`AnyAttribute`), its children views
//! (`AnyView`), reactive values behind `Signal`s, handlers behind boxes,
//! keyed lists through one `For`.
//!
//! Why: Leptos compiles its code for creating, updating and removing an
//! element once for every distinct element *type*, and with typed builders
//! (`html::button().class(..).on(..)`) every element, attribute closure and
//! handler of the page is a type of its own. Written that way the pages made
//! a 745 KB main module (280 KiB gzip, the hand renderer's 337 KB / 145 KiB),
//! over the 250 KiB budget for a whole page before any demo's own code.

use leptos::ev;
use leptos::prelude::*;
use leptos::reactive::effect::RenderEffect;
use leptos::tachys::html::attribute::any_attribute::AnyAttribute;
use leptos::tachys::html::attribute::custom::custom_attribute;
use leptos::tachys::html::directive::directive;
use leptos::tachys::html::element::custom;
use leptos::tachys::html::event::on;
use leptos::tachys::html::property::prop;
use leptos::tachys::html::style::style;
use std::rc::Rc;
use std::sync::Arc;

/// Text or an attribute's value, derived from signals; `None` leaves the
/// attribute off.
pub type Text = Signal<Option<String>>;

// The closures are boxed before Leptos sees them: `Signal::derive` and
// `Memo::new` are then compiled once per value type, not once per closure.

pub fn text(f: impl Fn() -> Option<String> + Send + Sync + 'static) -> Text {
    let f: Box<dyn Fn() -> Option<String> + Send + Sync> = Box::new(f);
    Signal::derive(f)
}

/// Text that is always there.
pub fn words(f: impl Fn() -> String + Send + Sync + 'static) -> Signal<String> {
    let f: Box<dyn Fn() -> String + Send + Sync> = Box::new(f);
    Signal::derive(f)
}

/// A boolean attribute or property.
pub fn flag(f: impl Fn() -> bool + Send + Sync + 'static) -> Signal<bool> {
    let f: Box<dyn Fn() -> bool + Send + Sync> = Box::new(f);
    Signal::derive(f)
}

/// A value derived from signals, kept while it stays equal: what reads it
/// runs again only when it changes.
pub fn memo<T: PartialEq + Send + Sync + 'static>(
    f: impl Fn() -> T + Send + Sync + 'static,
) -> Memo<T> {
    let f: Box<dyn Fn() -> T + Send + Sync> = Box::new(f);
    Memo::new(move |_| f())
}

#[derive(Clone, Copy)]
enum Tag {
    Html(&'static str),
    Svg(&'static str),
}

/// An element being built.
pub struct El {
    tag: Tag,
    attrs: Vec<AnyAttribute>,
    kids: Vec<AnyView>,
    loaded: Option<fn(web_sys::Element)>,
}

/// An HTML element.
pub fn h(tag: &'static str) -> El {
    El {
        tag: Tag::Html(tag),
        attrs: Vec::new(),
        kids: Vec::new(),
        loaded: None,
    }
}

/// An SVG element.
pub fn s(tag: &'static str) -> El {
    El {
        tag: Tag::Svg(tag),
        ..h(tag)
    }
}

impl El {
    /// A fixed attribute.
    pub fn set(mut self, name: &'static str, value: impl Into<String>) -> Self {
        let value: String = value.into();
        self.attrs
            .push(custom_attribute(name, value).into_any_attr());
        self
    }

    /// A fixed attribute, when there is a value.
    pub fn maybe(self, name: &'static str, value: Option<impl Into<String>>) -> Self {
        match value {
            Some(v) => self.set(name, v),
            None => self,
        }
    }

    pub fn class(self, class: impl Into<String>) -> Self {
        self.set("class", class)
    }

    pub fn testid(self, id: impl Into<String>) -> Self {
        self.set("data-testid", id)
    }

    /// An attribute that follows signals.
    pub fn bind(mut self, name: &'static str, value: Text) -> Self {
        self.attrs
            .push(custom_attribute(name, value).into_any_attr());
        self
    }

    /// A boolean attribute (`disabled`) that follows signals.
    pub fn toggle(mut self, name: &'static str, on: Signal<bool>) -> Self {
        self.attrs.push(custom_attribute(name, on).into_any_attr());
        self
    }

    /// One effect for the element and what it holds: `run` is given the
    /// element and what it returned the last time (nothing the first), and
    /// runs again when a signal it read changes. A picture's shape sets its
    /// attributes, its words, its hover text and an arrow's parts from one
    /// such effect: a picture has hundreds of shapes, and a step may draw a
    /// hundred new ones (measured in `scene::shape`).
    pub fn live<S: 'static>(
        mut self,
        run: impl Fn(&web_sys::Element, Option<S>) -> S + 'static,
    ) -> Self {
        let run: Run<S> = Rc::new(run);
        let bind = move |el: web_sys::Element, (): ()| {
            let run = run.clone();
            let effect = RenderEffect::new(move |before: Option<S>| run(&el, before));
            // Kept as long as the element's owner (its keyed row): dropped,
            // an effect stops.
            StoredValue::new_local(effect);
        };
        self.attrs.push(directive(bind, ()).into_any_attr());
        self
    }

    /// A DOM property (`value`) that follows signals.
    pub fn prop(mut self, name: &'static str, value: Signal<String>) -> Self {
        self.attrs.push(prop(name, value).into_any_attr());
        self
    }

    /// A boolean DOM property (`checked`) that follows signals.
    pub fn prop_flag(mut self, name: &'static str, value: Signal<bool>) -> Self {
        self.attrs.push(prop(name, value).into_any_attr());
        self
    }

    /// A CSS property set through the element's style object (never a
    /// `style` attribute, which the Content Security Policy refuses).
    pub fn style(mut self, name: &'static str, value: Text) -> Self {
        self.attrs.push(style((name, value)).into_any_attr());
        self
    }

    pub fn on_click(mut self, f: impl FnMut(web_sys::MouseEvent) + 'static) -> Self {
        let f: Box<dyn FnMut(web_sys::MouseEvent)> = Box::new(f);
        self.attrs.push(on(ev::click, f).into_any_attr());
        self
    }

    pub fn on_keydown(mut self, f: impl FnMut(web_sys::KeyboardEvent) + 'static) -> Self {
        let f: Box<dyn FnMut(web_sys::KeyboardEvent)> = Box::new(f);
        self.attrs.push(on(ev::keydown, f).into_any_attr());
        self
    }

    /// `change`, `input` or `submit`: any event whose handler only needs the
    /// event itself.
    pub fn on_event(mut self, name: Happens, f: impl FnMut(web_sys::Event) + 'static) -> Self {
        let f: Box<dyn FnMut(web_sys::Event)> = Box::new(f);
        let mut f = f;
        let attr = match name {
            Happens::Change => on(ev::change, f).into_any_attr(),
            Happens::Input => on(ev::input, f).into_any_attr(),
            Happens::Submit => {
                let g: Box<dyn FnMut(web_sys::SubmitEvent)> = Box::new(move |e| f(e.into()));
                on(ev::submit, g).into_any_attr()
            }
        };
        self.attrs.push(attr);
        self
    }

    pub fn child(mut self, child: El) -> Self {
        self.kids.push(child.view());
        self
    }

    pub fn maybe_child(self, child: Option<El>) -> Self {
        match child {
            Some(c) => self.child(c),
            None => self,
        }
    }

    pub fn children(mut self, children: impl IntoIterator<Item = El>) -> Self {
        self.kids.extend(children.into_iter().map(El::view));
        self
    }

    /// Any view: a keyed list, a part that comes and goes.
    pub fn view_child(mut self, view: AnyView) -> Self {
        self.kids.push(view);
        self
    }

    /// Fixed text.
    pub fn text(mut self, text: impl Into<String>) -> Self {
        let text: String = text.into();
        self.kids.push(text.into_any());
        self
    }

    /// Text that follows signals.
    pub fn words(mut self, text: Signal<String>) -> Self {
        self.kids.push(text.into_any());
        self
    }

    /// Calls `f` with the element once it is in the page. Only an `<svg>`
    /// (`s("svg")`) has it: the pictures' renderer watches its size.
    pub fn on_load(mut self, f: fn(web_sys::Element)) -> Self {
        debug_assert!(matches!(self.tag, Tag::Svg("svg")), "on_load is for <svg>");
        self.loaded = Some(f);
        self
    }

    /// The element, for Leptos.
    pub fn view(self) -> AnyView {
        let El {
            tag,
            attrs,
            kids,
            loaded,
        } = self;
        match (tag, loaded) {
            (Tag::Svg("svg"), Some(f)) => {
                let node = NodeRef::<leptos::svg::Svg>::new();
                node.on_load(move |el| f(el.into()));
                leptos::svg::svg()
                    .node_ref(node)
                    .add_any_attr(attrs)
                    .child(kids)
                    .into_any()
            }
            (Tag::Html(tag), _) => custom(tag).add_any_attr(attrs).child(kids).into_any(),
            (Tag::Svg(tag), _) => svg_element(tag, attrs, kids),
        }
    }
}

/// What `El::live` runs, shared by the element's directive.
type Run<S> = Rc<dyn Fn(&web_sys::Element, Option<S>) -> S>;

/// An element's attributes as a list: a name, and the value or none (then
/// the attribute is left off).
pub type Attrs = Vec<(&'static str, Option<String>)>;

/// Sets what changed from `before` to `now` on `el`.
pub fn apply(
    el: &web_sys::Element,
    before: &[(&'static str, Option<String>)],
    now: &[(&'static str, Option<String>)],
) {
    let set = |name: &str, value: Option<&str>| match name.strip_prefix("style:") {
        Some(property) => {
            let style = wasm_bindgen::JsCast::unchecked_ref::<web_sys::HtmlElement>(el).style();
            let _ = match value {
                Some(v) => style.set_property(property, v),
                None => style.remove_property(property).map(|_| ()),
            };
        }
        None => {
            let _ = match value {
                Some(v) => el.set_attribute(name, v),
                None => el.remove_attribute(name),
            };
        }
    };
    for (i, (name, value)) in now.iter().enumerate() {
        let was = match before.get(i) {
            Some((n, v)) if n == name => v.as_ref(),
            _ => before
                .iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, v)| v.as_ref()),
        };
        if was != value.as_ref() {
            set(name, value.as_deref());
        }
    }
    for (name, value) in before {
        if value.is_some() && !now.iter().any(|(n, _)| n == name) {
            set(name, None);
        }
    }
}

/// Events whose handlers take a plain `Event`.
#[derive(Clone, Copy)]
pub enum Happens {
    Change,
    Input,
    Submit,
}

/// SVG elements need their namespace, which only Leptos's typed SVG
/// elements carry: one type per tag the pictures use.
fn svg_element(tag: &'static str, attrs: Vec<AnyAttribute>, kids: Vec<AnyView>) -> AnyView {
    use leptos::svg;
    macro_rules! svg {
        ($f:ident) => {
            svg::$f().add_any_attr(attrs).child(kids).into_any()
        };
    }
    match tag {
        "svg" => svg!(svg),
        "g" => svg!(g),
        "rect" => svg!(rect),
        "circle" => svg!(circle),
        "line" => svg!(line),
        "path" => svg!(path),
        "text" => svg!(text),
        "tspan" => svg!(tspan),
        "title" => svg!(title),
        "a" => svg!(a),
        _ => svg!(g),
    }
}

impl IntoRender for El {
    type Output = AnyView;
    fn into_render(self) -> AnyView {
        self.view()
    }
}

/// A part of the page that is redrawn whenever what it reads changes (a
/// notice that comes and goes, the latest narration line): redrawn in place
/// when it is the same kind of view as before.
pub fn dynamic(f: impl Fn() -> AnyView + Send + Sync + 'static) -> AnyView {
    let f: Arc<dyn Fn() -> AnyView + Send + Sync> = Arc::new(f);
    (move || f()).into_any()
}

/// A keyed list: one row per key, in order, each drawn once by `row` (given
/// its index then and its key) and kept while its key stays.
pub fn keyed(
    each: impl Fn() -> Vec<(usize, String)> + Send + Sync + 'static,
    row: impl Fn(usize, String) -> El + Send + Sync + 'static,
) -> AnyView {
    let each: Arc<dyn Fn() -> Vec<(usize, String)> + Send + Sync> = Arc::new(each);
    let row: Arc<dyn Fn(usize, String) -> El + Send + Sync> = Arc::new(row);
    view! {
        <For each=move || each() key=|(_, key)| key.clone() children=move |(index, key)| row(index, key).view() />
    }
    .into_any()
}
