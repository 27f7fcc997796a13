import torch

CONFIG = {'num_nodes': 12, 'num_edges': 40, 'batch_size': 6, 'sample_coverage': 25}


def to_sorted_coo(edge_index, num_nodes):
    # CSR-style storage: edges sorted by (row, col), value holds the original edge id
    perm = (edge_index[0] * num_nodes + edge_index[1]).argsort()
    return edge_index[0, perm], edge_index[1, perm], perm


class GraphSAINTNodeSampler:
    def __init__(self, edge_index, num_nodes, batch_size, sample_coverage):
        self.N, self.E = num_nodes, edge_index.size(1)
        self.batch_size = batch_size
        self.sample_coverage = sample_coverage
        self.row, self.col, self.value = to_sorted_coo(edge_index, num_nodes)
        self.node_norm, self.edge_norm = self.__compute_norm__()

    def __sample_nodes__(self):
        return torch.randint(0, self.N, (self.batch_size,)).unique()

    def __subgraph__(self, node_idx):
        in_sample = torch.zeros(self.N, dtype=torch.bool)
        in_sample[node_idx] = True
        keep = in_sample[self.row] & in_sample[self.col]
        return self.value[keep]

    def __compute_norm__(self):
        node_count = torch.zeros(self.N, dtype=torch.float)
        edge_count = torch.zeros(self.E, dtype=torch.float)
        num_samples = total_sampled_nodes = 0
        while total_sampled_nodes < self.N * self.sample_coverage:
            node_idx = self.__sample_nodes__()
            edge_idx = self.__subgraph__(node_idx)
            node_count[node_idx] += 1
            edge_count[edge_idx] += 1
            total_sampled_nodes += node_idx.size(0)
            num_samples += 1
        self.node_count, self.edge_count = node_count.clone(), edge_count.clone()

        row, _, edge_idx = self.row, self.col, self.value
        t = torch.empty_like(edge_count).scatter_(0, edge_idx, node_count[row])
        edge_norm = (t / edge_count).clamp_(0, 1e4)
        edge_norm[torch.isnan(edge_norm)] = 0.1

        node_count[node_count == 0] = 0.1
        node_norm = num_samples / node_count / self.N
        return node_norm, edge_norm


def random_graph(cfg):
    src = torch.randint(0, cfg['num_nodes'], (cfg['num_edges'],))
    dst = (src + torch.randint(1, cfg['num_nodes'], (cfg['num_edges'],))) % cfg['num_nodes']
    return torch.stack([src, dst])


if __name__ == '__main__':
    torch.manual_seed(0)
    edge_index = random_graph(CONFIG)
    sampler = GraphSAINTNodeSampler(edge_index, CONFIG['num_nodes'], CONFIG['batch_size'], CONFIG['sample_coverage'])

    ref = torch.empty(edge_index.size(1))
    for e in range(edge_index.size(1)):
        count, src_count = sampler.edge_count[e].item(), sampler.node_count[edge_index[0, e]].item()
        ref[e] = min(src_count / count, 1e4) if count > 0 else (1e4 if src_count > 0 else 0.1)
    print('edge_norm[:6]:', [round(v, 3) for v in sampler.edge_norm[:6].tolist()])
    print('expected     :', [round(v, 3) for v in ref[:6].tolist()])
    print('max abs error:', round((sampler.edge_norm - ref).abs().max().item(), 3))
    assert torch.allclose(sampler.edge_norm, ref)
    print('ok')
