from wikigen.cli import main

raise SystemExit(main())
