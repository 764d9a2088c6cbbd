# Installs libpoker under a prefix: the header, the shared and static
# libraries, the pkg-config file, the `poker` program, and the Pascal unit
# and Python module and the example contestants (under share/libpoker).
# cargo-c is not needed.
#
#   make install PREFIX=/usr/local        # builds (cargo build --release) first
#   make install PREFIX=$HOME/.local DESTDIR=/tmp/stage
#   make uninstall PREFIX=/usr/local
#
# `install-files` copies without building, from BUILD_DIR (libraries) and
# BIN (the program); the install test uses it with the test build.

PREFIX ?= /usr/local
DESTDIR ?=
CARGO ?= cargo
BUILD_DIR ?= target/release
BIN ?= $(BUILD_DIR)/poker
INSTALL ?= install
# The workspace's version ([workspace.package] in the root Cargo.toml).
VERSION := $(shell sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)

DEST = $(DESTDIR)$(PREFIX)

.PHONY: all build install install-files uninstall

all: build

build:
	$(CARGO) build --release

install: build
	$(MAKE) install-files

install-files:
	$(INSTALL) -d $(DEST)/include $(DEST)/lib/pkgconfig $(DEST)/bin \
		$(DEST)/share/libpoker/pascal $(DEST)/share/libpoker/python \
		$(DEST)/share/libpoker/c_examples
	$(INSTALL) -m 644 include/poker.h $(DEST)/include/poker.h
	$(INSTALL) -m 755 $(BUILD_DIR)/libpoker.so $(DEST)/lib/libpoker.so
	$(INSTALL) -m 644 $(BUILD_DIR)/libpoker.a $(DEST)/lib/libpoker.a
	$(INSTALL) -m 755 $(BIN) $(DEST)/bin/poker
	$(INSTALL) -m 644 bindings/pascal/poker.pas $(DEST)/share/libpoker/pascal/poker.pas
	$(INSTALL) -m 644 bindings/python/libpoker.py $(DEST)/share/libpoker/python/libpoker.py
	$(INSTALL) -m 644 c_examples/*.c $(DEST)/share/libpoker/c_examples/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' libpoker.pc.in \
		> $(DEST)/lib/pkgconfig/libpoker.pc

uninstall:
	rm -f $(DEST)/include/poker.h $(DEST)/lib/libpoker.so $(DEST)/lib/libpoker.a \
		$(DEST)/lib/pkgconfig/libpoker.pc $(DEST)/bin/poker
	rm -rf $(DEST)/share/libpoker
