print("Login example (being built)")
