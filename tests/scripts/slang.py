"""slang's command line on top of pyslang (the PyPI wheel has no slang executable).

    slang.py [slang options] -- e.g. slang.py -Weverything -F design_block.f

Exits 0 when slang reports no error; warnings are printed, and the caller decides."""
import shlex
import sys

import pyslang


def main():
    driver = pyslang.driver.Driver()
    driver.addStandardArgs()
    options = pyslang.driver.CommandLineOptions()
    options.ignoreProgramName = True
    if not driver.parseCommandLine(shlex.join(sys.argv[1:]), options):
        return 2
    if not driver.processOptions():
        return 2
    parsed = driver.parseAllSources()
    compiled = driver.runFullCompilation(quiet=False)
    return 0 if parsed and compiled else 1


if __name__ == "__main__":
    sys.exit(main())
