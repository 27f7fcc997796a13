import torch


def system_power(forces, velocities, system_idx, n_systems):
    """Power F . v of every system in a batch.

    Args:
        forces (Tensor): (n_atoms, 3) forces.
        velocities (Tensor): (n_atoms, 3) velocities.
        system_idx (LongTensor): (n_atoms,) system of every atom, in [0, n_systems).
        n_systems (int): number of systems S.

    Returns:
        Tensor: (S,) power of each system.
    """
    atomic_power = (forces * velocities).sum(dim=1)  # (n_atoms,)
    power = torch.zeros(n_systems, device=forces.device, dtype=forces.dtype)
    power.scatter_add_(0, system_idx, atomic_power)
    return power


def harmonic_forces(positions, anchors, k=1.0):
    """Forces of springs pulling every atom to its anchor.

    Args:
        positions (Tensor): (n_atoms, 3).
        anchors (Tensor): (n_atoms, 3).

    Returns:
        Tensor: (n_atoms, 3).
    """
    return -k * (positions - anchors)


def fire_step(positions, velocities, dt, system_idx, n_systems, anchors, alpha=0.1, dt_max=0.5):
    """One FIRE step for a batch of systems (mixing and time step are per system).

    Args:
        positions (Tensor): (n_atoms, 3).
        velocities (Tensor): (n_atoms, 3).
        dt (Tensor): (S,) time step of each system.

    Returns:
        tuple: new positions (n_atoms, 3), velocities (n_atoms, 3), time steps (S,).
    """
    forces = harmonic_forces(positions, anchors)
    power = system_power(forces, velocities, system_idx, n_systems)  # (S,)
    uphill = power[system_idx] <= 0  # (n_atoms,)
    v_norm = velocities.norm(dim=1, keepdim=True)
    f_norm = forces.norm(dim=1, keepdim=True).clamp(min=1e-12)
    velocities = (1 - alpha) * velocities + alpha * v_norm * forces / f_norm
    velocities = torch.where(uphill.unsqueeze(1), torch.zeros_like(velocities), velocities)
    dt = torch.where(power > 0, (dt * 1.1).clamp(max=dt_max), dt * 0.5)
    velocities = velocities + dt[system_idx].unsqueeze(1) * forces
    positions = positions + dt[system_idx].unsqueeze(1) * velocities
    return positions, velocities, dt


if __name__ == "__main__":
    torch.manual_seed(0)
    atoms_per_system = torch.tensor([3, 4, 2])
    system_idx = torch.repeat_interleave(torch.arange(3), atoms_per_system)
    anchors = torch.randn(9, 3, dtype=torch.float64)
    positions = anchors + 0.5 * torch.randn(9, 3, dtype=torch.float64)
    velocities = torch.zeros_like(positions)
    dt = torch.full((3,), 0.1, dtype=torch.float64)
    forces = harmonic_forces(positions, anchors)
    velocities = torch.randn(9, 3, dtype=torch.float64)
    power = system_power(forces, velocities, system_idx, 3)
    ref = [0.0, 0.0, 0.0]
    for a in range(9):
        ref[int(system_idx[a])] += float((forces[a] * velocities[a]).sum())
    assert torch.allclose(power, torch.tensor(ref, dtype=torch.float64))
    velocities = torch.zeros_like(positions)
    for _ in range(60):
        positions, velocities, dt = fire_step(positions, velocities, dt, system_idx, 3, anchors)
    assert harmonic_forces(positions, anchors).abs().max().item() < 0.05
    print("ok")
