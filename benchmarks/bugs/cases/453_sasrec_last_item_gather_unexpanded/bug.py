import torch
import torch.nn as nn


class SequentialRecommender(nn.Module):
    def gather_indexes(self, output, gather_index):
        """Gathers the vectors at the specific positions over a minibatch."""
        gather_index = gather_index.view(-1, 1, 1)
        output_tensor = output.gather(dim=1, index=gather_index)
        return output_tensor.squeeze(1)


class SASRec(SequentialRecommender):
    def __init__(self, n_items, hidden_size, max_seq_length, n_layers=2, n_heads=2):
        super().__init__()
        self.item_embedding = nn.Embedding(n_items, hidden_size, padding_idx=0)
        self.position_embedding = nn.Embedding(max_seq_length, hidden_size)
        layer = nn.TransformerEncoderLayer(hidden_size, n_heads, hidden_size * 2, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers)

    def encode(self, item_seq):
        positions = torch.arange(item_seq.size(1)).unsqueeze(0).expand_as(item_seq)
        h = self.item_embedding(item_seq) + self.position_embedding(positions)
        causal = torch.triu(torch.ones(item_seq.size(1), item_seq.size(1), dtype=torch.bool), 1)
        return self.encoder(h, mask=causal, src_key_padding_mask=item_seq == 0)

    def forward(self, item_seq, item_seq_len):
        return self.gather_indexes(self.encode(item_seq), item_seq_len - 1)

    def full_sort_predict(self, item_seq, item_seq_len):
        seq_output = self.forward(item_seq, item_seq_len)
        test_items_emb = self.item_embedding.weight
        return torch.matmul(seq_output, test_items_emb.transpose(0, 1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SASRec(n_items=500, hidden_size=64, max_seq_length=20).eval()
    item_seq = torch.zeros(4, 20, dtype=torch.long)
    item_seq_len = torch.tensor([5, 20, 12, 1])
    for i, n in enumerate(item_seq_len.tolist()):
        item_seq[i, :n] = torch.randint(1, 500, (n,))
    with torch.no_grad():
        scores = model.full_sort_predict(item_seq, item_seq_len)
    print("scores:", tuple(scores.shape), "top-5 of user 0:", scores[0].topk(5).indices.tolist())
