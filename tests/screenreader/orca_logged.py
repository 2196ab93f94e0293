# Runs Debian's Orca with its debug log at INFO level, line-buffered, into the file argv[1]
# (what Orca says is logged as "SPEECH OUTPUT: '…'" at INFO; --debug-file would log everything,
# which is slow). The rest of argv goes to Orca. Run with /usr/bin/python3 (it has pyatspi).
import runpy
import sys

from orca import debug

debug.debugLevel = debug.LEVEL_INFO
debug.debugFile = open(sys.argv[1], 'w', buffering=1)
sys.argv = ['orca'] + sys.argv[2:]
runpy.run_path('/usr/bin/orca', run_name='__main__')
