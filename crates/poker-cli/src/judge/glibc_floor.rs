//! The oldest glibc a program runs with: the newest `GLIBC_x.y` symbol
//! version its ELF file needs (its `SHT_GNU_VERNEED` section, what
//! `objdump -p` lists as "Version References"), not the glibc of the
//! machine that built it, which may be newer.

use object::Endianness;
use object::elf::FileHeader64;
use object::read::elf::FileHeader as _;

/// The newest glibc version (`"2.34"`) that the 64-bit ELF file `data`
/// needs; `None` when it needs none (a static program). Errors: not a
/// 64-bit ELF file, or malformed version tables.
pub fn glibc_floor(data: &[u8]) -> Result<Option<String>, String> {
    let bad = |e: object::read::Error| format!("malformed ELF file ({e})");
    let header =
        FileHeader64::<Endianness>::parse(data).map_err(|_| "not a 64-bit ELF file".to_string())?;
    let endian = header.endian().map_err(bad)?;
    let sections = header.sections(endian, data).map_err(bad)?;
    let Some((mut needs, link)) = sections.gnu_verneed(endian, data).map_err(bad)? else {
        return Ok(None);
    };
    let strings = sections.strings(endian, data, link).map_err(bad)?;
    let mut newest: Option<(Vec<u32>, String)> = None;
    while let Some((_, mut versions)) = needs.next().map_err(bad)? {
        while let Some(version) = versions.next().map_err(bad)? {
            let name = version.name(endian, strings).map_err(bad)?;
            let Some(number) = std::str::from_utf8(name)
                .ok()
                .and_then(|n| n.strip_prefix("GLIBC_"))
            else {
                continue;
            };
            // GLIBC_PRIVATE and the like are no release.
            let Ok(parts) = number
                .split('.')
                .map(str::parse)
                .collect::<Result<Vec<u32>, _>>()
            else {
                continue;
            };
            if newest.as_ref().is_none_or(|(n, _)| parts > *n) {
                newest = Some((parts, number.to_string()));
            }
        }
    }
    Ok(newest.map(|(_, number)| number))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_an_elf_file_is_an_error() {
        assert!(glibc_floor(b"#!/bin/sh\n").is_err());
    }
}
