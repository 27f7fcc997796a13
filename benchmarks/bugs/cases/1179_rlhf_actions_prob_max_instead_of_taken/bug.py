import torch
from jaxtyping import Float, Int
from torch import Tensor, nn


class TinyActor(nn.Module):
    def __init__(self, vocab=30, dim=12):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, sequences: Int[Tensor, "b s"]) -> Float[Tensor, "b s v"]:
        return self.out(torch.tanh(self.emb(sequences).cumsum(dim=1)))


def actions_log_prob(
    actions_logits: Float[Tensor, "b a v"], actions: Int[Tensor, "b a"]
) -> Float[Tensor, "b a"]:
    actions_prob = torch.softmax(actions_logits, dim=-1).max(dim=-1).values
    return actions_prob.log()


def ppo_actor_loss(actor, sequences, n_actions, old_log_probs, advantages, clip=0.2):
    logits = actor(sequences)[:, -n_actions - 1:-1]
    actions = sequences[:, -n_actions:]
    log_probs = actions_log_prob(logits, actions)
    ratio = (log_probs - old_log_probs).exp()
    surr = torch.min(ratio * advantages, ratio.clamp(1 - clip, 1 + clip) * advantages)
    return -surr.mean(), ratio


if __name__ == "__main__":
    torch.manual_seed(0)
    actor = TinyActor()
    prompts = torch.randint(0, 30, (3, 5))
    with torch.no_grad():
        completion, old_lp = [], []
        seq = prompts
        for _ in range(4):
            dist = torch.distributions.Categorical(logits=actor(seq)[:, -1])
            tok = dist.sample()
            old_lp.append(dist.log_prob(tok))
            seq = torch.cat([seq, tok[:, None]], dim=1)
    old_log_probs = torch.stack(old_lp, dim=1)
    loss, ratio = ppo_actor_loss(actor, seq, 4, old_log_probs, torch.ones(3, 4))
    print("ratio at the sampling policy:", ratio)
