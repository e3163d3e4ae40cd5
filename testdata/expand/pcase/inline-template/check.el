(calls (pcx-it-all)
       (progn (byte-compile 'pcx-it-all) (pcx-it-all)))
