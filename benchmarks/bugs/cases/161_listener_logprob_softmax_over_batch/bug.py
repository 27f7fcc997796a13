import torch
import torch.nn as nn
import torch.nn.functional as F


class Listener(nn.Module):
    """Reads a message and scores every candidate object in the batch's candidate set."""

    def __init__(self, vocab_size, msg_len, obj_dim, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.obj_proj = nn.Linear(obj_dim, hidden)

    def forward(self, message, candidates):
        # message: [B, L] symbol ids, candidates: [B, C, obj_dim]
        _, h = self.rnn(self.embed(message))  # h: [1, B, H]
        msg_vec = h.squeeze(0)  # [B, H]
        cand_vec = self.obj_proj(candidates)  # [B, C, H]
        return torch.einsum("bh,bch->bc", msg_vec, cand_vec)  # [B, C] scores


def listener_loss(listener, message, candidates, target):
    pred_vector = listener(message, candidates)  # [B, C]
    # log-probability the listener gives to the true candidate, one per game: [B]
    chosen = F.log_softmax(pred_vector, dim=0).gather(1, target.unsqueeze(1)).squeeze(1)
    return -chosen.mean(), chosen


if __name__ == "__main__":
    torch.manual_seed(0)
    listener = Listener(vocab_size=10, msg_len=4, obj_dim=6)
    message = torch.randint(0, 10, (8, 4))  # [B, L]
    candidates = torch.randn(8, 5, 6)  # [B, C, obj_dim]
    target = torch.randint(0, 5, (8,))  # [B]
    loss, chosen = listener_loss(listener, message, candidates, target)
    scores = listener(message, candidates)
    ref = torch.stack([F.log_softmax(scores[i], dim=0)[target[i]] for i in range(8)])
    print("listener loss:", loss.item(), "per-game reference:", (-ref.mean()).item())
    print("max |diff| of chosen log-probs:", (chosen - ref).abs().max().item())
