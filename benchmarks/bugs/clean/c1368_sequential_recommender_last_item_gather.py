import torch
import torch.nn as nn


class SequentialRecommender(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.n_items = config["n_items"]
        self.hidden_size = config["hidden_size"]
        self.max_seq_length = config["max_seq_length"]
        self.item_embedding = nn.Embedding(self.n_items, self.hidden_size, padding_idx=0)
        self.position_embedding = nn.Embedding(self.max_seq_length, self.hidden_size)
        layer = nn.TransformerEncoderLayer(self.hidden_size, config["n_heads"], 4 * self.hidden_size,
                                           dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, config["n_layers"])
        self.register_buffer("item_cnt", torch.zeros(self.n_items, dtype=torch.long))

    def gather_indexes(self, output, gather_index):
        """Gathers the vectors at the specific positions over a minibatch"""
        gather_index = gather_index.view(-1, 1, 1).expand(-1, -1, output.shape[-1])
        output_tensor = output.gather(dim=1, index=gather_index)
        return output_tensor.squeeze(1)

    def update_popularity(self, items):
        self.item_cnt.scatter_add_(0, items, torch.ones_like(items))

    def forward(self, item_seq, item_seq_len):
        position_ids = torch.arange(item_seq.size(1), device=item_seq.device).unsqueeze(0).expand_as(item_seq)
        x = self.item_embedding(item_seq) + self.position_embedding(position_ids)
        padding_mask = item_seq == 0
        causal = torch.triu(torch.ones(item_seq.size(1), item_seq.size(1), dtype=torch.bool), diagonal=1)
        out = self.encoder(x, mask=causal, src_key_padding_mask=padding_mask)
        return self.gather_indexes(out, item_seq_len - 1)

    def full_sort_predict(self, item_seq, item_seq_len):
        seq_output = self.forward(item_seq, item_seq_len)
        return seq_output @ self.item_embedding.weight.t()


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"n_items": 40, "hidden_size": 16, "max_seq_length": 10, "n_heads": 2, "n_layers": 1}
    model = SequentialRecommender(config).eval()
    lengths = torch.tensor([10, 4, 7])
    seqs = torch.zeros(3, 10, dtype=torch.long)
    for b, n in enumerate(lengths.tolist()):
        seqs[b, :n] = torch.randint(1, 40, (n,))
    with torch.no_grad():
        seq_out = model(seqs, lengths)
        position_ids = torch.arange(10).unsqueeze(0).expand_as(seqs)
        x = model.item_embedding(seqs) + model.position_embedding(position_ids)
        causal = torch.triu(torch.ones(10, 10, dtype=torch.bool), diagonal=1)
        full = model.encoder(x, mask=causal, src_key_padding_mask=seqs == 0)
        ref = torch.stack([full[b, int(lengths[b]) - 1] for b in range(3)])
    assert torch.allclose(seq_out, ref, atol=1e-5)
    scores = model.full_sort_predict(seqs, lengths)
    assert scores.shape == (3, 40)

    targets = torch.tensor([3, 5, 3, 3, 9, 5])
    model.update_popularity(targets)
    expected = [0] * 40
    for t in targets.tolist():
        expected[t] += 1
    assert model.item_cnt.tolist() == expected
    print("ok")
