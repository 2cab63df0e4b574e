import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const backend = 'http://127.0.0.1:8080';

/** Vendor chunks: React (+ router/query/i18n), antd (+ its rc-components and icons), ECharts and Leaflet (lazy). */
function vendorChunk(id: string): string | null {
  if (!id.includes('node_modules')) return null;
  // Charts and maps ride with the lazily loaded pages that use them, never the entry.
  if (/node_modules[\\/](echarts|zrender)[\\/]/.test(id)) return 'vendor-echarts';
  if (/node_modules[\\/](leaflet|react-leaflet|@react-leaflet|topojson-client)[\\/]/.test(id)) return 'vendor-leaflet';
  if (/node_modules[\\/]world-atlas[\\/]/.test(id)) return null;
  if (/node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+|@emotion)[\\/]/.test(id)) return 'vendor-antd';
  if (/node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|i18next|react-i18next)[\\/]/.test(id)) {
    return 'vendor-react';
  }
  return 'vendor';
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  server: {
    proxy: {
      '/public': { target: backend, changeOrigin: true },
      '/remote': { target: backend, changeOrigin: true },
      '/upg': { target: backend, changeOrigin: true },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: (id: string) => vendorChunk(id), debugName: 'vendor' }],
        },
      },
    },
  },
});
