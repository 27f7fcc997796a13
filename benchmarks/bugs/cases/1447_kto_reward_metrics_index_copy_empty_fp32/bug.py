import torch


class KTOMetrics:
    def __init__(self, beta=0.1):
        self.beta = beta

    def implicit_rewards(self, policy_logps, ref_logps, idx):
        # policy_logps, ref_logps: [B] sequence log-probs (model dtype); idx: [K] rows of one class
        if idx.numel() == 0:
            return torch.tensor([])
        return self.beta * (policy_logps.index_select(0, idx) - ref_logps.index_select(0, idx))  # [K]

    def __call__(self, completion_logps, ref_logps, labels):
        # completion_logps: [B] bf16 under mixed precision; labels: [B] bool, True = desirable
        chosen_idx = torch.nonzero(labels, as_tuple=False).view(-1)  # [Kc]
        rejected_idx = torch.nonzero(~labels, as_tuple=False).view(-1)  # [Kr]
        chosen_rewards = self.implicit_rewards(completion_logps, ref_logps, chosen_idx)  # [Kc]
        rejected_rewards = self.implicit_rewards(completion_logps, ref_logps, rejected_idx)  # [Kr]
        # row-aligned [B] tensors so they can be gathered across ranks before averaging
        chosen_rewards_sum = torch.zeros_like(completion_logps).index_copy(0, chosen_idx, chosen_rewards)
        rejected_rewards_sum = torch.zeros_like(completion_logps).index_copy(0, rejected_idx, rejected_rewards)
        return {
            "rewards/chosen_sum": chosen_rewards_sum.float().sum(),
            "rewards/rejected_sum": rejected_rewards_sum.float().sum(),
            "count/chosen": torch.tensor(float(chosen_idx.numel())),
            "count/rejected": torch.tensor(float(rejected_idx.numel())),
        }


if __name__ == "__main__":
    torch.manual_seed(0)
    metrics = KTOMetrics(beta=0.1)
    completion_logps = (-torch.rand(4) * 20).to(torch.bfloat16)  # [4]
    ref_logps = (-torch.rand(4) * 20).to(torch.bfloat16)  # [4]
    labels = torch.tensor([True, True, True, True])  # this rank only drew desirable examples
    print(metrics(completion_logps, ref_logps, labels))
