SELECT exp(0.0), pow(2.0, 0.5)
