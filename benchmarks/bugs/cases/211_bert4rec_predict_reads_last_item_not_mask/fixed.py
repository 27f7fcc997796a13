import torch
import torch.nn as nn


class BERT4Rec(nn.Module):
    """Bidirectional sequential recommender: the next item is predicted at a [mask] appended to the history.

    Args:
        n_items (`int`): number of items; id 0 is padding and id `n_items` is the [mask] token.
        hidden_size (`int`): size of the item and position embeddings.
        max_seq_length (`int`): longest history kept per user.
    """

    def __init__(self, n_items, hidden_size=16, max_seq_length=6, n_layers=1, n_heads=2):
        super().__init__()
        self.n_items = n_items
        self.mask_token = n_items
        self.item_embedding = nn.Embedding(n_items + 1, hidden_size, padding_idx=0)
        self.position_embedding = nn.Embedding(max_seq_length + 1, hidden_size)
        layer = nn.TransformerEncoderLayer(hidden_size, n_heads, 2 * hidden_size, dropout=0.0, batch_first=True)
        self.trm_encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.layer_norm = nn.LayerNorm(hidden_size)

    def forward(self, item_seq):
        """
        Args:
            item_seq (`torch.LongTensor` of shape `(batch_size, seq_len)`): item ids, right-padded with 0.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`.
        """
        positions = torch.arange(item_seq.size(1), device=item_seq.device)
        hidden = self.layer_norm(self.item_embedding(item_seq) + self.position_embedding(positions))
        return self.trm_encoder(hidden, src_key_padding_mask=item_seq == 0)

    def reconstruct_test_data(self, item_seq, item_seq_len):
        """Appends one padding column and puts the [mask] token right after the last real item.

        Args:
            item_seq (`torch.LongTensor` of shape `(batch_size, seq_len)`)
            item_seq_len (`torch.LongTensor` of shape `(batch_size,)`): number of real items per row.

        Returns:
            `torch.LongTensor` of shape `(batch_size, seq_len + 1)`; row b holds [mask] at position item_seq_len[b].
        """
        padding = torch.zeros(item_seq.size(0), 1, dtype=torch.long, device=item_seq.device)
        item_seq = torch.cat((item_seq, padding), dim=-1)
        for batch_id, last_position in enumerate(item_seq_len.tolist()):
            item_seq[batch_id, last_position] = self.mask_token
        return item_seq

    def gather_indexes(self, output, gather_index):
        """Gathers the vectors at the specific positions over a minibatch.

        Args:
            output (`torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`)
            gather_index (`torch.LongTensor` of shape `(batch_size,)`)

        Returns:
            `torch.FloatTensor` of shape `(batch_size, hidden_size)`.
        """
        gather_index = gather_index.view(-1, 1, 1).expand(-1, -1, output.shape[-1])
        output_tensor = output.gather(dim=1, index=gather_index)
        return output_tensor.squeeze(1)

    def full_sort_predict(self, interaction):
        """
        Args:
            interaction (`dict`): `item_id_list` of shape `(batch_size, seq_len)` and `item_length` of shape
                `(batch_size,)`.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, n_items)`: a score for every item.
        """
        item_seq = interaction["item_id_list"]
        item_seq_len = interaction["item_length"]
        item_seq = self.reconstruct_test_data(item_seq, item_seq_len)
        seq_output = self.forward(item_seq)
        seq_output = self.gather_indexes(seq_output, item_seq_len)
        test_items_emb = self.item_embedding.weight[: self.n_items]  # drop the [mask] row
        return seq_output @ test_items_emb.t()


def collate_histories(histories, max_seq_length):
    item_id_list = torch.zeros(len(histories), max_seq_length, dtype=torch.long)
    for row, items in enumerate(histories):
        items = items[-max_seq_length:]
        item_id_list[row, : len(items)] = torch.tensor(items)
    item_length = torch.tensor([min(len(h), max_seq_length) for h in histories])
    return {"item_id_list": item_id_list, "item_length": item_length}


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BERT4Rec(n_items=20).eval()
    histories = [[3, 7, 2], [5, 1, 9, 4, 8], [11], [6, 6, 13, 2]]
    batch = collate_histories(histories, max_seq_length=6)
    with torch.no_grad():
        scores = model.full_sort_predict(batch)
        for row, items in enumerate(histories):
            seq = torch.tensor([items + [model.mask_token] + [0] * (6 - len(items))])
            hidden = model.forward(seq)[0, len(items)]
            for item in range(20):
                expected = sum(hidden[d].item() * model.item_embedding.weight[item, d].item() for d in range(16))
                assert abs(scores[row, item].item() - expected) < 1e-4
    print("ok")
