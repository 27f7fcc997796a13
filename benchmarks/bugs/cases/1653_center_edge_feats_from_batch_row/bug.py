import torch
import torch.nn as nn


class CenterScoreHead(nn.Module):
    """Translation/rotation score head: every ligand atom sends one message to its complex's center."""

    def __init__(self, ns=8, node_dim=12, dist_bins=6, hidden=16):
        super().__init__()
        self.ns = ns
        self.dist_bins = dist_bins
        self.center_edge_embedding = nn.Sequential(nn.Linear(dist_bins, ns), nn.ReLU(), nn.Linear(ns, ns))
        self.message = nn.Linear(2 * ns, hidden)
        self.readout = nn.Linear(hidden, 6)

    def build_center_conv_graph(self, lig_pos, lig_batch, num_graphs):
        # lig_pos: [N, 3], lig_batch: [N] complex id of every ligand atom
        atom_ids = torch.arange(lig_batch.numel())
        edge_index = torch.stack([lig_batch, atom_ids], dim=0)  # [2, N]: row 0 = center (complex), row 1 = atom
        center = torch.zeros(num_graphs, 3).index_add_(0, lig_batch, lig_pos)  # [G, 3]
        center = center / torch.bincount(lig_batch, minlength=num_graphs).unsqueeze(1)
        edge_vec = lig_pos[edge_index[1]] - center[edge_index[0]]  # [N, 3]
        dist = edge_vec.norm(dim=-1, keepdim=True)  # [N, 1]
        mu = torch.linspace(0.0, 5.0, self.dist_bins)  # [dist_bins]
        edge_attr = torch.exp(-((dist - mu) ** 2))  # [N, dist_bins]
        return edge_index, edge_attr

    def forward(self, lig_node_attr, lig_pos, lig_batch, num_graphs):
        # lig_node_attr: [N, node_dim], scalar channels first
        center_edge_index, center_edge_attr = self.build_center_conv_graph(lig_pos, lig_batch, num_graphs)
        center_edge_attr = self.center_edge_embedding(center_edge_attr)  # [N, ns]
        center_edge_attr = torch.cat([center_edge_attr, lig_node_attr[center_edge_index[0], : self.ns]], -1)  # [N, 2*ns]
        messages = self.message(center_edge_attr)  # [N, hidden]
        pooled = torch.zeros(num_graphs, messages.size(1)).index_add_(0, center_edge_index[0], messages)  # [G, hidden]
        return self.readout(pooled)  # [G, 6]


def reference_scores(head, lig_node_attr, lig_pos, lig_batch, num_graphs):
    pooled = [torch.zeros(head.message.out_features) for _ in range(num_graphs)]
    for g in range(num_graphs):
        atoms = [i for i in range(lig_batch.numel()) if int(lig_batch[i]) == g]
        center = sum(lig_pos[i] for i in atoms) / len(atoms)
        for i in atoms:
            dist = (lig_pos[i] - center).norm()
            rbf = torch.exp(-((dist - torch.linspace(0.0, 5.0, head.dist_bins)) ** 2))
            feat = torch.cat([head.center_edge_embedding(rbf), lig_node_attr[i, : head.ns]])
            pooled[g] = pooled[g] + head.message(feat)
    return head.readout(torch.stack(pooled))


if __name__ == "__main__":
    torch.manual_seed(0)
    sizes = [5, 7, 4]
    lig_batch = torch.repeat_interleave(torch.arange(len(sizes)), torch.tensor(sizes))
    lig_pos = torch.randn(sum(sizes), 3) * 2.0
    lig_node_attr = torch.randn(sum(sizes), 12)
    head = CenterScoreHead()
    with torch.no_grad():
        out = head(lig_node_attr, lig_pos, lig_batch, len(sizes))
        ref = reference_scores(head, lig_node_attr, lig_pos, lig_batch, len(sizes))
    print("tr/rot scores:", tuple(out.shape), "max |diff| vs per-atom reference:", (out - ref).abs().max().item())
