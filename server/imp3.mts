const mods = process.argv.slice(2);
for (const m of mods) { const a = performance.now(); await import(m); console.log(m, Math.round(performance.now() - a)); }
