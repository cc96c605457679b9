"""Certificates for SAT verdicts: a DRAT checker (`drat`) and certificate files (`certificate`)."""
