# Installs libpoker under a prefix: the header, the shared and static
# libraries, the pkg-config file, the `poker` program with its manual pages
# and shell completions, and the Pascal unit and Python module and the
# example contestants (under share/libpoker). cargo-c is not needed.
#
#   make install PREFIX=/usr/local        # builds (cargo build --release) first
#   make install PREFIX=$HOME/.local DESTDIR=/tmp/stage
#   make uninstall PREFIX=/usr/local
#   make deb                              # target/deb/libpoker_VERSION_ARCH.deb
#   make deb DEB_XZ_LEVEL=1               # the same, packed faster, a little larger
#
# `install-files` copies without building, from BUILD_DIR (libraries) and
# BIN (the program); the install test uses it with the test build.
#
# The shared library is installed as lib/libpoker.so.VERSION with the
# SONAME libpoker.so.MAJOR.MINOR for 0.x releases (libpoker.so.MAJOR from
# 1.0 on, as cargo-c names them), set here with patchelf, and the links
# libpoker.so -> libpoker.so.MAJOR.MINOR -> libpoker.so.VERSION. Programs
# linked with -lpoker then load libpoker.so.0.3, which every 0.3.x release
# provides and no other release does. The copy in target/release keeps no
# SONAME, so programs linked against the build tree need no extra link.
#
# libpoker.pc's Libs.private (the native libraries a static link of
# libpoker.a needs) is what rustc prints for this crate with
# --print native-static-libs, from an unoptimised staticlib build of the
# library (same features) in a target folder of its own: the main build
# stays fresh, and a second run only replays cargo's cached note. Less
# -lgcc_s, which has no static archive (so `cc -static` failed on it): the
# compiler driver links libgcc's unwinder itself, libgcc_s as needed in a
# dynamic program, libgcc_eh in a static one.
#
# Without DESTDIR, into a prefix whose lib the loader searches (/usr/local
# on Debian), install runs ldconfig, so that programs linked with -lpoker
# find the new library at once; into another prefix it says how to link.
PREFIX ?= /usr/local
DESTDIR ?=
CARGO ?= cargo
BUILD_DIR ?= target/release
BIN ?= $(BUILD_DIR)/poker
INSTALL ?= install
PATCHELF ?= patchelf
# The workspace's version ([workspace.package] in the root Cargo.toml).
VERSION := $(shell sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
# 0.3.0 -> libpoker.so.0.3; 1.2.0 -> libpoker.so.1.
SONAME := libpoker.so.$(shell echo '$(VERSION)' | awk -F. '{ print ($$1 == 0 ? $$1 "." $$2 : $$1) }')
LIBFILE := libpoker.so.$(VERSION)
NATIVE_LIBS_DIR ?= target/native-static-libs
DEB_DIR ?= target/deb
# xz level of the package's data (dpkg-deb's default, 6, for a release).
DEB_XZ_LEVEL ?= 6
MAN_DIR = $(DEST)/share/man/man1
BASH_DIR = $(DEST)/share/bash-completion/completions
ZSH_DIR = $(DEST)/share/zsh/vendor-completions
FISH_DIR = $(DEST)/share/fish/vendor_completions.d

DEST = $(DESTDIR)$(PREFIX)

.PHONY: all build install install-files uninstall deb

all: build

build:
	$(CARGO) build --release

install: build
	$(MAKE) install-files

install-files:
	@echo "make: installing into $(DEST)"
	$(INSTALL) -d $(DEST)/include $(DEST)/lib/pkgconfig $(DEST)/bin \
		$(DEST)/share/libpoker/pascal $(DEST)/share/libpoker/python \
		$(DEST)/share/libpoker/c_examples $(MAN_DIR) $(BASH_DIR) $(ZSH_DIR) $(FISH_DIR)
	$(INSTALL) -m 644 include/poker.h $(DEST)/include/poker.h
	command -v $(PATCHELF) >/dev/null || { echo "make: $(PATCHELF) is needed to set the SONAME (Debian: apt-get install patchelf)" >&2; exit 1; }
	$(INSTALL) -m 755 $(BUILD_DIR)/libpoker.so $(DEST)/lib/$(LIBFILE)
	$(PATCHELF) --set-soname $(SONAME) $(DEST)/lib/$(LIBFILE)
	ln -sfn $(LIBFILE) $(DEST)/lib/$(SONAME)
	ln -sfn $(SONAME) $(DEST)/lib/libpoker.so
	$(INSTALL) -m 644 $(BUILD_DIR)/libpoker.a $(DEST)/lib/libpoker.a
	$(INSTALL) -m 755 $(BIN) $(DEST)/bin/poker
	$(INSTALL) -m 644 bindings/pascal/poker.pas $(DEST)/share/libpoker/pascal/poker.pas
	$(INSTALL) -m 644 bindings/python/libpoker.py $(DEST)/share/libpoker/python/libpoker.py
	$(INSTALL) -m 644 c_examples/*.c $(DEST)/share/libpoker/c_examples/
	$(BIN) man $(MAN_DIR)
	gzip -9nf $(MAN_DIR)/poker.1 $(MAN_DIR)/poker-*.1
	$(BIN) completions bash > $(BASH_DIR)/poker
	$(BIN) completions zsh > $(ZSH_DIR)/_poker
	$(BIN) completions fish > $(FISH_DIR)/poker.fish
	@echo "make: the static link flags for libpoker.pc, from an unoptimised build of the library in $(NATIVE_LIBS_DIR) (a minute or two the first time, then cached)"
	@log=$$(mktemp) && trap 'rm -f "$$log" "$$log.status"' EXIT; \
	{ CARGO_PROFILE_DEV_DEBUG=false $(CARGO) rustc -p libpoker --lib --crate-type staticlib \
		--target-dir $(NATIVE_LIBS_DIR) -- --print native-static-libs 2>&1; echo $$? > "$$log.status"; } \
		| tee "$$log" | grep --line-buffered -E '^ *(Compiling|Finished)' >&2; \
	[ "$$(cat "$$log.status")" = 0 ] \
		|| { cat "$$log" >&2; echo "make: cargo rustc --print native-static-libs failed" >&2; exit 1; }; \
	libs=$$(sed -n 's/^note: native-static-libs: //p' "$$log" | tail -n 1); \
	[ -n "$$libs" ] || { cat "$$log" >&2; echo "make: rustc printed no native-static-libs" >&2; exit 1; }; \
	libs=$$(echo "$$libs" | sed 's/ *-lgcc_s\b//g; s/^ *//'); \
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e "s|@LIBS_PRIVATE@|$$libs|" \
		libpoker.pc.in > $(DEST)/lib/pkgconfig/libpoker.pc
	@if [ -n "$(DESTDIR)" ]; then :; \
	elif ldconfig -v -N 2>/dev/null | grep -q '^$(PREFIX)/lib:'; then \
		ldconfig || echo "make: run ldconfig as root, so that the loader finds $(PREFIX)/lib/$(SONAME)" >&2; \
	else \
		echo "make: the loader does not search $(PREFIX)/lib: link programs with" \
			"-Wl,-rpath,$(PREFIX)/lib (or set LD_LIBRARY_PATH=$(PREFIX)/lib), as in"; \
		echo "  export PKG_CONFIG_PATH=$(PREFIX)/lib/pkgconfig"; \
		echo '  cc prog.c $$(pkg-config --cflags --libs libpoker) -Wl,-rpath,$$(pkg-config --variable=libdir libpoker)'; \
	fi
	@if [ -z "$(DESTDIR)" ]; then case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) \
		echo "make: $(PREFIX)/bin is not on PATH: for the poker command and its man pages," \
			"export PATH=$(PREFIX)/bin:\$$PATH";; esac; fi

uninstall:
	rm -f $(DEST)/include/poker.h $(DEST)/lib/libpoker.so $(DEST)/lib/$(SONAME) \
		$(DEST)/lib/$(LIBFILE) $(DEST)/lib/libpoker.a \
		$(DEST)/lib/pkgconfig/libpoker.pc $(DEST)/bin/poker \
		$(MAN_DIR)/poker.1.gz $(MAN_DIR)/poker-*.1.gz $(BASH_DIR)/poker \
		$(ZSH_DIR)/_poker $(FISH_DIR)/poker.fish
	rm -rf $(DEST)/share/libpoker

# The Debian package: `make install-files PREFIX=/usr DESTDIR=...` packed
# with dpkg-deb (contrib/deb/build.sh says what it adds and why).
deb: build
	DEB_XZ_LEVEL='$(DEB_XZ_LEVEL)' bash contrib/deb/build.sh '$(VERSION)' '$(SONAME)' '$(DEB_DIR)' '$(BUILD_DIR)' '$(BIN)'
