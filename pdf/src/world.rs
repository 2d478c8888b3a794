//! The smallest Typst world: one generated main file, one data file, the embedded fonts, no
//! file system, no packages, no clock. A document cannot reach anything outside what we hand it.

use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime, Duration};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};

pub(crate) struct Shared {
    library: LazyHash<Library>,
    book: LazyHash<FontBook>,
    fonts: Vec<Font>,
}

impl Shared {
    pub fn new() -> Shared {
        let fonts = crate::fonts::load();
        Shared {
            library: LazyHash::new(Library::default()),
            book: LazyHash::new(FontBook::from_fonts(&fonts)),
            fonts,
        }
    }
}

pub(crate) struct DocWorld<'a> {
    shared: &'a Shared,
    main: Source,
    data_id: FileId,
    data: Bytes,
    /// Picture `n` is `/i/n`.
    images: Vec<(FileId, Bytes)>,
}

fn file_id(path: &str) -> FileId {
    let vpath = VirtualPath::new(path).unwrap_or_else(|_| unreachable!("constant paths are valid"));
    FileId::new(RootedPath::new(VirtualRoot::Project, vpath))
}

impl<'a> DocWorld<'a> {
    pub fn new(
        shared: &'a Shared,
        markup: String,
        data: Vec<u8>,
        images: &[std::sync::Arc<[u8]>],
    ) -> DocWorld<'a> {
        DocWorld {
            shared,
            main: Source::new(file_id("/main.typ"), markup),
            data_id: file_id("/data.json"),
            data: Bytes::new(data),
            images: images
                .iter()
                .enumerate()
                .map(|(n, b)| (file_id(&format!("/i/{n}")), Bytes::new(b.clone())))
                .collect(),
        }
    }
}

impl World for DocWorld<'_> {
    fn library(&self) -> &LazyHash<Library> {
        &self.shared.library
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &self.shared.book
    }

    fn main(&self) -> FileId {
        self.main.id()
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            Ok(self.main.clone())
        } else {
            Err(FileError::AccessDenied)
        }
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if id == self.data_id {
            Ok(self.data.clone())
        } else if id == self.main.id() {
            Ok(Bytes::from_string(self.main.clone()))
        } else if let Some((_, b)) = self.images.iter().find(|(i, _)| *i == id) {
            Ok(b.clone())
        } else {
            Err(FileError::AccessDenied)
        }
    }

    fn font(&self, index: usize) -> Option<Font> {
        self.shared.fonts.get(index).cloned()
    }

    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        None
    }
}
