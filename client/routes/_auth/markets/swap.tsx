import { createFileRoute } from '@tanstack/react-router'
import { MarketPage } from '../../../features/market/MarketPage'

export const Route = createFileRoute('/_auth/markets/swap')({ component: () => <MarketPage kind="SWAP" /> })
