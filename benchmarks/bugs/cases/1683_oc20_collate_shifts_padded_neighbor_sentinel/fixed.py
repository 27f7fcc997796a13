import torch


def radius_graph_padded(pos, cutoff, max_neighbors):
    num_atoms = pos.shape[0]
    dist = torch.cdist(pos, pos)
    dist.fill_diagonal_(float("inf"))
    order = dist.argsort(dim=1)[:, :max_neighbors]
    within = dist.gather(1, order) < cutoff
    neighbors = torch.where(within, order, torch.full_like(order, -1))
    centers = torch.arange(num_atoms).repeat_interleave(max_neighbors)
    return torch.stack([centers, neighbors.reshape(-1)])


def atoms_to_graph(pos, cutoff=2.5, max_neighbors=4):
    return {"pos": pos, "edge_index": radius_graph_padded(pos, cutoff, max_neighbors)}


def data_list_collater(data_list):
    pos, edge_index, batch = [], [], []
    offset = 0
    for i, data in enumerate(data_list):
        pos.append(data["pos"])
        edge_index.append(torch.where(data["edge_index"] == -1, data["edge_index"], data["edge_index"] + offset))
        batch.append(torch.full((data["pos"].shape[0],), i, dtype=torch.long))
        offset += data["pos"].shape[0]
    return {
        "pos": torch.cat(pos),
        "edge_index": torch.cat(edge_index, dim=1),
        "batch": torch.cat(batch),
        "num_graphs": len(data_list),
    }


def pair_energy(graph, length_scale=1.0):
    pos = graph["pos"]
    src, dst = graph["edge_index"]
    valid = dst != -1
    neighbor_pos = pos.index_select(0, dst.clamp(min=0))
    dist = (pos[src] - neighbor_pos).norm(dim=-1)
    contrib = torch.exp(-dist / length_scale) * valid
    atom_energy = torch.zeros(pos.shape[0]).index_add_(0, src, contrib)
    return torch.zeros(graph["num_graphs"]).index_add_(0, graph["batch"], atom_energy)


if __name__ == "__main__":
    torch.manual_seed(0)
    structures = [
        atoms_to_graph(torch.rand(5, 3) * 4.0),
        atoms_to_graph(torch.rand(6, 3) * 4.0),
        atoms_to_graph(torch.rand(4, 3) * 4.0),
    ]
    batch = data_list_collater(structures)
    energies = pair_energy(batch)
    for g, s in enumerate(structures):
        ref = 0.0
        for center, nbr in s["edge_index"].t().tolist():
            if nbr != -1:
                ref += torch.exp(-(s["pos"][center] - s["pos"][nbr]).norm()).item()
        assert abs(energies[g].item() - ref) < 1e-5, (g, energies[g].item(), ref)
    print("ok")
