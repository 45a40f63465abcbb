SELECT changes()
