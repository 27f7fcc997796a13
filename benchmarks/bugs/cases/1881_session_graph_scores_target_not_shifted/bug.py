import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class SessionAttentionRecommender(nn.Module):
    def __init__(self, num_items: int, hidden_size: int, max_len: int = 50):
        super().__init__()
        self.n_node = num_items + 1  # item ids start at 1, 0 pads the sessions
        self.embedding = nn.Embedding(self.n_node, hidden_size, padding_idx=0)
        self.pos_embedding = nn.Embedding(max_len, hidden_size)
        self.w_1 = nn.Linear(2 * hidden_size, hidden_size)
        self.glu1 = nn.Linear(hidden_size, hidden_size)
        self.glu2 = nn.Linear(hidden_size, hidden_size, bias=False)
        self.w_2 = nn.Linear(hidden_size, 1, bias=False)

    def compute_scores(
        self, hidden: Float[Tensor, "batch seq hidden"], mask: Float[Tensor, "batch seq"]
    ) -> Float[Tensor, "batch num_items"]:
        mask = mask.unsqueeze(-1)
        batch_size, length = hidden.shape[0], hidden.shape[1]
        pos_emb = self.pos_embedding.weight[:length].unsqueeze(0).expand(batch_size, -1, -1)
        hs = torch.sum(hidden * mask, -2) / torch.sum(mask, 1)
        hs = hs.unsqueeze(-2).expand(-1, length, -1)
        nh = torch.tanh(self.w_1(torch.cat([pos_emb, hidden], -1)))
        nh = torch.sigmoid(self.glu1(nh) + self.glu2(hs))
        beta = self.w_2(nh) * mask
        select = torch.sum(beta * hidden, 1)
        b = self.embedding.weight[1:]  # the padding row gets no score
        return torch.matmul(select, b.transpose(1, 0))

    def forward(self, items: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch num_items"]:
        mask = (items != 0).float()
        return self.compute_scores(self.embedding(items), mask)


def next_item_loss(
    scores: Float[Tensor, "batch num_items"], targets: Int[Tensor, " batch"]
) -> Float[Tensor, ""]:
    log_probs = F.log_softmax(scores, dim=-1)
    picked = log_probs.gather(1, targets.unsqueeze(1)).squeeze(1)
    return -picked.mean()


def hit_and_mrr(
    scores: Float[Tensor, "batch num_items"], targets: Int[Tensor, " batch"], k: int = 5
) -> tuple[Float[Tensor, ""], Float[Tensor, ""]]:
    target_scores = scores.gather(1, targets.unsqueeze(1))
    rank = (scores > target_scores).sum(1) + 1
    hit = (rank <= k).float().mean()
    mrr = torch.where(rank <= k, 1.0 / rank.float(), torch.zeros(rank.shape)).mean()
    return hit, mrr


if __name__ == "__main__":
    torch.manual_seed(0)
    num_items = 30
    model = SessionAttentionRecommender(num_items, hidden_size=16)
    sessions = torch.tensor([
        [3, 7, 7, 12, 0, 0],
        [5, 9, 2, 0, 0, 0],
        [21, 4, 18, 6, 11, 0],
        [1, 2, 3, 4, 5, 6],
    ])
    targets = torch.tensor([14, 2, 29, 7])  # next clicked item ids (1..num_items)
    with torch.no_grad():
        scores = model(sessions)
        loss = next_item_loss(scores, targets)
        hit, mrr = hit_and_mrr(scores, targets)
        log_probs = F.log_softmax(scores, dim=-1)
        true_loss = -torch.stack([log_probs[b, t - 1] for b, t in enumerate(targets.tolist())]).mean()
    print("loss:", loss.item(), "loss on the clicked items:", true_loss.item())
    print("hit@5:", hit.item(), "mrr@5:", mrr.item())
