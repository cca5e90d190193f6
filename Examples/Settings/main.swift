print("Settings example (being built)")
