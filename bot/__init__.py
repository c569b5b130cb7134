"""Frontends (Discord, console) and the transport-free host that both drive."""
