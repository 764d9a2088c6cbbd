//! Camicia (Beggar-My-Neighbour) simulation and search (seed 002).
