import torch
import torch.nn as nn


class BPRLoss(nn.Module):
    def __init__(self, gamma=1e-10):
        super().__init__()
        self.gamma = gamma

    def forward(self, pos_score, neg_score):
        return -torch.log(self.gamma + torch.sigmoid(pos_score - neg_score)).mean()


class EmbLoss(nn.Module):
    def __init__(self, norm=2):
        super().__init__()
        self.norm = norm

    def forward(self, *embeddings):
        emb_loss = torch.zeros(1)
        for embedding in embeddings:
            emb_loss += torch.norm(embedding, p=self.norm)
        emb_loss /= embeddings[-1].shape[0]
        return emb_loss


class RegLoss(nn.Module):
    def forward(self, parameters):
        return parameters.norm(2)


class TransRec(nn.Module):
    def __init__(self, n_users, n_items, embedding_size):
        super().__init__()
        self.embedding_size = embedding_size
        self.user_embedding = nn.Embedding(n_users, self.embedding_size, padding_idx=0)
        self.item_embedding = nn.Embedding(n_items, self.embedding_size, padding_idx=0)
        self.bias = nn.Embedding(n_items, 1, padding_idx=0)  # Beta popularity bias
        self.T = nn.Parameter(torch.zeros(self.embedding_size))  # average user representation 'global'
        self.bpr_loss = BPRLoss()
        self.emb_loss = EmbLoss()
        self.reg_loss = RegLoss()

    def _l2_distance(self, x, y):
        return torch.sqrt(torch.sum((x - y) ** 2, dim=-1, keepdim=True))  # [B 1]

    def gather_last_items(self, item_seq, gather_index):
        """Gathers the last_item at the specific positions over a minibatch"""
        gather_index = gather_index.view(-1, 1)
        last_items = item_seq.gather(index=gather_index, dim=1)  # [B 1]
        return last_items.squeeze(-1)  # [B]

    def forward(self, user, item_seq, item_seq_len):
        # the last item at the last position
        last_items = self.gather_last_items(item_seq, item_seq_len - 1)  # [B]
        user_emb = self.user_embedding(user)  # [B H]
        last_items_emb = self.item_embedding(last_items)  # [B H]
        T = self.T.expand_as(user_emb)  # [B H]
        seq_output = user_emb + T + last_items_emb  # [B H]
        return seq_output

    def calculate_loss(self, interaction):
        user = interaction['user_id']  # [B]
        item_seq = interaction['item_id_list']  # [B Len]
        item_seq_len = interaction['item_length']
        seq_output = self.forward(user, item_seq, item_seq_len)  # [B H]
        last_items = self.gather_last_items(item_seq, item_seq_len - 1)  # [B]

        pos_items = interaction['item_id']  # [B]
        neg_items = interaction['neg_item_id']  # [B] sample 1 negative item

        pos_items_emb = self.item_embedding(pos_items)  # [B H]
        neg_items_emb = self.item_embedding(neg_items)
        pos_bias = self.bias(pos_items)  # [B 1]
        neg_bias = self.bias(neg_items)
        pos_score = pos_bias - self._l2_distance(seq_output, pos_items_emb)
        neg_score = neg_bias - self._l2_distance(seq_output, neg_items_emb)

        bpr_loss = self.bpr_loss(pos_score, neg_score)
        item_emb_loss = self.emb_loss(self.item_embedding(pos_items).detach())
        user_emb_loss = self.emb_loss(self.user_embedding(user).detach())
        bias_emb_loss = self.emb_loss(self.bias(pos_items).detach())

        reg_loss = self.reg_loss(self.T)
        return bpr_loss, item_emb_loss, user_emb_loss, bias_emb_loss, reg_loss


if __name__ == "__main__":
    torch.manual_seed(0)
    n_users, n_items, max_len = 64, 64, 6
    model = TransRec(n_users, n_items, embedding_size=8)
    B = 5
    item_length = torch.tensor([3, 6, 1, 4, 2])
    item_id_list = torch.zeros(B, max_len, dtype=torch.long)
    for b in range(B):
        item_id_list[b, :item_length[b]] = torch.randint(1, n_items, (int(item_length[b]),))
    interaction = {
        'user_id': torch.tensor([41, 7, 58, 12, 33]),
        'item_id_list': item_id_list,
        'item_length': item_length,
        'item_id': torch.randint(1, n_items, (B,)),
        'neg_item_id': torch.randint(1, n_items, (B,)),
    }
    bpr, item_reg, user_reg, bias_reg, t_reg = model.calculate_loss(interaction)
    W_u, W_i, W_b = model.user_embedding.weight, model.item_embedding.weight, model.bias.weight

    def ref_emb_loss(table, ids):
        total = 0.0
        for i in ids:
            for v in table[i].tolist():
                total += v * v
        return total ** 0.5 / len(ids)

    assert abs(float(item_reg) - ref_emb_loss(W_i, interaction['item_id'].tolist())) < 1e-5
    assert abs(float(user_reg) - ref_emb_loss(W_u, interaction['user_id'].tolist())) < 1e-5
    assert abs(float(bias_reg) - ref_emb_loss(W_b, interaction['item_id'].tolist())) < 1e-5
    print("ok")
