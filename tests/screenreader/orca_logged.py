# Runs Debian's Orca with its debug log at INFO level, line-buffered, into the file argv[1]
# (what Orca says is logged as "SPEECH OUTPUT: '…'" at INFO; --debug-file would log everything,
# which is slow). The rest of argv goes to Orca. Run with /usr/bin/python3 (it has pyatspi).
#
# Orca refuses to start while another process of the user is named "orca", and names itself so:
# this one runs on a desktop of its own (its own session and accessibility buses), so it keeps
# its python3 name and does not look for others, and a reader's Orca or another test's is not in
# its way (nor it in theirs).
import runpy
import sys

from orca import debug, settings

debug.debugLevel = debug.LEVEL_INFO
debug.debugFile = open(sys.argv[1], 'w', buffering=1)
# Orca reads a page aloud when it has loaded (Say All). The null device never reports the reading
# done, so Orca went on believing it was reading: it then kept browse mode in a text field, and
# the digits typed there moved among headings. A reader's key would stop the reading; not here.
settings.sayAllOnLoad = False
sys.argv = ['orca'] + sys.argv[2:]
launcher = runpy.run_path('/usr/bin/orca', run_name='orca_launcher')
launcher['main'].__globals__['otherOrcas'] = lambda: []
launcher['main'].__globals__['setProcessName'] = lambda name: False
sys.exit(launcher['main']())
