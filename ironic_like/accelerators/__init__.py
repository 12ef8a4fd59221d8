"""Accelerators: what reaches outside the service (doc/accelerators.md).

images: the FPGA bitstream image service (Glance or a JSON index);
os_acc: the seed's initialize/plug/unplug API.
"""
